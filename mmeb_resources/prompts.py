"""Prompt files in `prompt_templates/<stage>/<name>.md`.

A file holds a system part and a user part separated by a line `---USER---`. Placeholders are
`{{name}}`; a missing variable is an error, not an empty string.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

PROMPT_DIR = Path(__file__).resolve().parents[1] / "prompt_templates"
PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
SEPARATOR = "---USER---"


@dataclass(frozen=True)
class PromptTemplate:
    stage: str
    name: str
    system: str
    user: str

    @property
    def hash(self) -> str:
        return hashlib.sha256((self.system + SEPARATOR + self.user).encode()).hexdigest()[:16]

    @property
    def variables(self) -> set[str]:
        return set(PLACEHOLDER.findall(self.system)) | set(PLACEHOLDER.findall(self.user))

    def render(self, **values: object) -> tuple[str, str]:
        missing = self.variables - set(values)
        if missing:
            raise KeyError(f"prompt {self.stage}/{self.name}: missing variables {sorted(missing)}")

        def fill(text: str) -> str:
            return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), text)

        return fill(self.system).strip(), fill(self.user).strip()

    def messages(self, **values: object) -> list[dict[str, str]]:
        system, user = self.render(**values)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def load_prompt(stage: str, name: str, prompt_dir: Path = PROMPT_DIR) -> PromptTemplate:
    path = prompt_dir / stage / f"{name}.md"
    if not path.exists():
        raise FileNotFoundError(f"prompt template not found: {path}")
    text = path.read_text(encoding="utf-8")
    system, sep, user = text.partition(SEPARATOR)
    if not sep:
        raise ValueError(f"{path}: missing the '{SEPARATOR}' line between system and user parts")
    shared = prompt_dir / "shared_system.md"
    if shared.exists() and "{{shared_rules}}" in system:
        system = system.replace("{{shared_rules}}", shared.read_text(encoding="utf-8").strip())
    return PromptTemplate(stage=stage, name=name, system=system, user=user)
