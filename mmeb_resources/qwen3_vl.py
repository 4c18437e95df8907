"""Qwen3-VL-Embedding runtime: loading and batched text / image / text+image encoding.

Follows the model's reference embedder: a `Qwen3VLModel` (no LM head) under `.model`, the chat
template `system: instruction` / `user: [image] [text]` with the generation prompt, right padding,
the hidden state of the last non-pad token, L2-normalised. Images go through the PIL image
processor of the checkpoint (`preprocessor_config.json`), so torchvision is not required; image
placeholders are expanded here the way `Qwen3VLProcessor` does (grid t*h*w / merge_size^2 tokens).

Imported lazily by `mmeb_resources.embedder.Qwen3VLEmbedder`: importing this module pulls torch.
"""
from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mmeb_resources.embedder_errors import EmbedderUnavailable

IMAGE_PAD = "<|image_pad|>"
_MODEL_CLASS: Any = None


def embedding_model_class():
    """`Qwen3VLForEmbedding`: the checkpoint layout of Qwen3-VL-Embedding (weights under `model.`)."""
    global _MODEL_CLASS
    if _MODEL_CLASS is None:
        from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLModel, Qwen3VLPreTrainedModel

        class Qwen3VLForEmbedding(Qwen3VLPreTrainedModel):
            _checkpoint_conversion_mapping: dict = {}

            def __init__(self, config):
                super().__init__(config)
                self.model = Qwen3VLModel(config)
                self.post_init()

            def forward(self, **inputs):
                return self.model(**inputs, use_cache=False).last_hidden_state

        _MODEL_CLASS = Qwen3VLForEmbedding
    return _MODEL_CLASS


def resolve_weights(model: str) -> Path:
    """A local folder, or a model id found in the local Hugging Face cache; else a clear error."""
    path = Path(model).expanduser()
    if path.exists():
        if not (path / "config.json").exists():
            raise EmbedderUnavailable(f"Qwen3-VL-Embedding folder {path} has no config.json "
                                      "(expected config.json, *.safetensors, tokenizer files, preprocessor_config.json)")
        return path
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(model, local_files_only=True))
    except Exception as exc:  # noqa: BLE001 - any failure means: not available offline
        raise EmbedderUnavailable(
            f"Qwen3-VL-Embedding weights {model!r} are not available locally ({type(exc).__name__}). "
            "Download them on a machine with access (e.g. `hf download Qwen/Qwen3-VL-Embedding-2B --local-dir DIR`) "
            "and set the retriever's `model` in config/retrievers.yaml, or its path_env variable "
            "(MMEB_QWEN3_VL_EMBEDDING_2B / _8B), to DIR.") from exc


def _instruction_text(instruction: str) -> str:
    text = instruction.strip()
    if text and not unicodedata.category(text[-1]).startswith("P"):
        text += "."
    return text


def conversation(text: str, has_image: bool, instruction: str) -> list[dict]:
    content: list[dict] = []
    if has_image:
        content.append({"type": "image"})
    if text:
        content.append({"type": "text", "text": text})
    if not content:
        content.append({"type": "text", "text": "NULL"})
    return [{"role": "system", "content": [{"type": "text", "text": _instruction_text(instruction)}]},
            {"role": "user", "content": content}]


@dataclass
class LoadedQwen3VL:
    model: Any
    tokenizer: Any
    image_processor: Any
    device: Any
    dtype: Any
    hidden_size: int

    @property
    def takes_mm_token_types(self) -> bool:
        import inspect

        return "mm_token_type_ids" in inspect.signature(self.model.model.forward).parameters

    def _prompts(self, items: list[tuple[str, str | None]], instruction: str, size: dict):
        from PIL import Image

        prompts, images = [], []
        for text, image_path in items:
            prompts.append(self.tokenizer.apply_chat_template(conversation(text, bool(image_path), instruction),
                                                              add_generation_prompt=True, tokenize=False))
            if image_path:
                with Image.open(image_path) as img:
                    images.append(img.convert("RGB"))
        vision = self.image_processor(images=images, size=size, return_tensors="pt") if images else {}
        merge = int(getattr(self.image_processor, "merge_size", 2)) ** 2
        grids = iter(vision["image_grid_thw"].tolist()) if images else iter(())
        expanded = []
        for prompt in prompts:  # one image at most per prompt: expand its single placeholder
            if IMAGE_PAD in prompt:
                t, h, w = next(grids)
                prompt = prompt.replace(IMAGE_PAD, IMAGE_PAD * (t * h * w // merge), 1)
            expanded.append(prompt)
        return expanded, vision

    def encode(self, items: list[tuple[str, str | None]], instruction: str, *, min_pixels: int,
               max_pixels: int, max_length: int) -> np.ndarray:
        import torch

        prompts, vision = self._prompts(items, instruction, {"shortest_edge": min_pixels, "longest_edge": max_pixels})
        enc = self.tokenizer(prompts, padding=True, truncation=True, max_length=max_length, return_tensors="pt")
        image_id = self.tokenizer.convert_tokens_to_ids(IMAGE_PAD)
        inputs = {"input_ids": enc["input_ids"], "attention_mask": enc["attention_mask"]}
        if self.takes_mm_token_types:  # newer transformers: M-RoPE positions need the modality of each token
            inputs["mm_token_type_ids"] = (enc["input_ids"] == image_id).long()
        if vision:
            inputs["pixel_values"] = vision["pixel_values"].to(self.dtype)
            inputs["image_grid_thw"] = vision["image_grid_thw"]
        inputs = {k: v.to(self.device) for k, v in inputs.items()}
        with torch.inference_mode():
            hidden = self.model(**inputs)
        mask = inputs["attention_mask"]
        last = mask.shape[1] - 1 - mask.flip(dims=[1]).argmax(dim=1)
        pooled = hidden[torch.arange(hidden.shape[0], device=hidden.device), last]
        pooled = torch.nn.functional.normalize(pooled.float(), p=2, dim=-1)
        return pooled.cpu().numpy().astype(np.float32)


def _processor_chat_template(path: Path) -> str:
    """Checkpoints that keep the template at processor level (chat_template.json / .jinja)."""
    import json

    if (path / "chat_template.jinja").exists():
        return (path / "chat_template.jinja").read_text(encoding="utf-8")
    if (path / "chat_template.json").exists():
        return json.loads((path / "chat_template.json").read_text(encoding="utf-8"))["chat_template"]
    raise EmbedderUnavailable(f"{path}: the tokenizer has no chat template (chat_template.json/.jinja missing)")


def _device_and_dtype(device: str, dtype: str):
    import torch

    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise EmbedderUnavailable(f"device {device!r} requested but torch sees no CUDA GPU")
    torch_dtype = getattr(torch, dtype)
    if device == "cpu" and torch_dtype in (torch.bfloat16, torch.float16):
        torch_dtype = torch.float32  # half precision matmuls are slow or missing on CPU
    return torch.device(device), torch_dtype


def load_qwen3_vl(model: str, *, device: str = "auto", dtype: str = "bfloat16") -> LoadedQwen3VL:
    """Load weights, tokenizer and image processor; raises EmbedderUnavailable with the reason."""
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
        from transformers import AutoTokenizer
    except ImportError as exc:
        raise EmbedderUnavailable(f"Qwen3-VL embedder needs torch and transformers>=5: {exc}") from exc
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    path = resolve_weights(model)
    torch_device, torch_dtype = _device_and_dtype(device, dtype)
    net = embedding_model_class().from_pretrained(str(path), dtype=torch_dtype).to(torch_device).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(path), padding_side="right")
    if not getattr(tokenizer, "chat_template", None):
        tokenizer.chat_template = _processor_chat_template(path)
    image_processor = image_processor_class().from_pretrained(str(path))
    hidden = int(net.config.text_config.hidden_size)
    return LoadedQwen3VL(net, tokenizer, image_processor, torch_device, torch_dtype, hidden)


def image_processor_class():
    """The PIL image processor (no torchvision needed); older transformers: the default one."""
    try:
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

        return Qwen2VLImageProcessorPil
    except ImportError:
        from transformers.models.qwen2_vl.image_processing_qwen2_vl import Qwen2VLImageProcessor

        return Qwen2VLImageProcessor
