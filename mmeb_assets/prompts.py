"""Prompt files in `prompt_templates/<stage>/<name>.md`: moved to `mmeb_resources.prompts` (the LLM
resource takes a PromptTemplate and mmeb_resources imports nothing from mmeb_assets); this path
re-exports it for the stages."""
from mmeb_resources.prompts import PLACEHOLDER, PROMPT_DIR, SEPARATOR, PromptTemplate, load_prompt

__all__ = ["PLACEHOLDER", "PROMPT_DIR", "SEPARATOR", "PromptTemplate", "load_prompt"]
