"""GPU check of the evaluation stage's CUDA paths (for a lent GPU machine, no internet, < 5 minutes).

    python bench/gpu/check_vllm.py [--budget 270] [--no-vllm]

1. The environment: torch / CUDA / GPU, transformers, vLLM (imported lazily: a missing package is a
   SKIP line, not a failure).
2. A bf16 matmul on the GPU (TFLOPS; the baseline figure of this run).
3. The project's in-process `TransformersBackend` on CUDA (bf16) with a tiny *random* Llama and a
   word-level tokenizer built here (no download): load time, 32 greedy generations of prompts of
   ~1k tokens, prompt and generated tokens per second, against the same on the CPU.
4. When vLLM imports: the project's in-process `VLLMBackend` on the same tiny model (bf16,
   eager mode), a batch of 64 prompts through one `LLM.chat` call; tokens per second.
Each step runs under what is left of the time budget; figures are printed as `FIGURE name value`.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
START = time.monotonic()


def figure(name: str, value, unit: str = "") -> None:
    print(f"FIGURE {name} {value}{(' ' + unit) if unit else ''}", flush=True)


def left(budget: float) -> float:
    return budget - (time.monotonic() - START)


def environment() -> bool:
    print(f"python {sys.version.split()[0]}")
    try:
        import torch
    except ImportError:
        print("SKIP torch is not installed: nothing to check")
        return False
    print(f"torch {torch.__version__}, CUDA build {torch.version.cuda}, available {torch.cuda.is_available()}")
    if torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        print(f"GPU 0: {props.name}, {props.total_memory / 2**30:.1f} GiB, {torch.cuda.device_count()} device(s)")
    for name in ("transformers", "vllm", "httpx"):
        try:
            module = __import__(name)
            print(f"{name} {getattr(module, '__version__', '?')}")
        except Exception as exc:  # noqa: BLE001 - any import failure is a SKIP line
            print(f"{name}: not importable ({type(exc).__name__}: {str(exc)[:120]})")
    return torch.cuda.is_available()


def matmul_tflops() -> None:
    import torch

    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        a @ b
    torch.cuda.synchronize()
    started = time.perf_counter()
    for _ in range(20):
        a @ b
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - started
    figure("bf16_matmul_tflops", round(20 * 2 * 8192**3 / elapsed / 1e12, 1))


def tiny_model(folder: Path) -> Path:
    """A random 8-layer Llama (hidden 512) and a word-level tokenizer with a chat template."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    words = ["<pad>", "<s>", "</s>", "<unk>", "system", "user", "assistant", ":", "question", "record"]
    words += [f"w{i}" for i in range(4086)]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<s>", eos_token="</s>", pad_token="<pad>",
                                   unk_token="<unk>")
    fast.chat_template = ("{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} {% endfor %}"
                          "{% if add_generation_prompt %}assistant : {% endif %}")
    config = LlamaConfig(vocab_size=len(words), hidden_size=512, intermediate_size=1376, num_hidden_layers=8,
                         num_attention_heads=8, num_key_value_heads=8, max_position_embeddings=4096,
                         bos_token_id=1, eos_token_id=2, pad_token_id=0)
    LlamaForCausalLM(config).save_pretrained(str(folder))
    fast.save_pretrained(str(folder))
    return folder


def prompts(n: int, words: int = 1000) -> list[list[dict]]:
    return [[{"role": "system", "content": "answer from the records"},
             {"role": "user", "content": " ".join(f"w{(i * 7 + j) % 4000}" for j in range(words)) + " question"}]
            for i in range(n)]


def transformers_backend(folder: Path, budget: float) -> None:
    from mmeb_resources import llm_backends
    from mmeb_resources.llm_backends import TransformersBackend

    for device, count in (("cuda", 32), ("cpu", 2)):
        if left(budget) < 30:
            print(f"SKIP transformers on {device}: time budget spent")
            continue
        llm_backends._LOADED.clear()
        backend = TransformersBackend("tiny-llama", str(folder), device=device, cache_root=folder.parent)
        started = time.perf_counter()
        llm_backends.load_causal_lm(str(folder), device, folder.parent)
        figure(f"transformers_{device}_load_s", round(time.perf_counter() - started, 2))
        batch = prompts(count)
        started = time.perf_counter()
        done = [backend.complete(m, {"max_tokens": 32, "temperature": 0}) for m in batch]
        elapsed = time.perf_counter() - started
        prompt_tokens = sum(c.prompt_tokens for c in done)
        new_tokens = sum(c.completion_tokens for c in done)
        figure(f"transformers_{device}_s_per_request", round(elapsed / count, 3))
        figure(f"transformers_{device}_prompt_tokens_per_s", round(prompt_tokens / elapsed))
        figure(f"transformers_{device}_new_tokens_per_s", round(new_tokens / elapsed, 1))
        model = llm_backends._LOADED[(str(folder), device)][1]
        print(f"transformers on {device}: dtype {next(model.parameters()).dtype}, {count} requests")


def vllm_backend(folder: Path, budget: float) -> None:
    if left(budget) < 90:
        print("SKIP vLLM: less than 90 s of the time budget left")
        return
    try:
        started = time.perf_counter()
        import vllm  # noqa: F401

        figure("vllm_import_s", round(time.perf_counter() - started, 2))
    except Exception as exc:  # noqa: BLE001
        print(f"SKIP vLLM not importable: {type(exc).__name__}: {str(exc)[:200]}")
        return
    from mmeb_resources.llm_backends import VLLMBackend

    backend = VLLMBackend("tiny-llama", str(folder), max_model_len=2048, gpu_memory_utilization=0.3, limit_images=0,
                          engine_kwargs={"enforce_eager": True})
    started = time.perf_counter()
    backend.engine()
    figure("vllm_engine_start_s", round(time.perf_counter() - started, 2))
    batch = [(m, {"max_tokens": 32, "temperature": 0}) for m in prompts(64)]
    started = time.perf_counter()
    done = backend.complete_many(batch)
    elapsed = time.perf_counter() - started
    figure("vllm_batch64_s", round(elapsed, 3))
    figure("vllm_prompt_tokens_per_s", round(sum(c.prompt_tokens for c in done) / elapsed))
    figure("vllm_new_tokens_per_s", round(sum(c.completion_tokens for c in done) / elapsed, 1))


def main() -> int:
    parser = argparse.ArgumentParser(description="GPU check of the evaluation stage")
    parser.add_argument("--budget", type=float, default=270.0, help="seconds for the whole check")
    parser.add_argument("--no-vllm", action="store_true")
    args = parser.parse_args()
    results = {"ok": True}
    if not environment():
        print("SKIP no CUDA device: the CUDA checks need the lent GPU machine")
        return 0
    steps = [("matmul", lambda folder: matmul_tflops()),
             ("transformers", lambda folder: transformers_backend(folder, args.budget))]
    if not args.no_vllm:
        steps.append(("vllm", lambda folder: vllm_backend(folder, args.budget)))
    with tempfile.TemporaryDirectory() as tmp:
        folder = tiny_model(Path(tmp) / "tiny-llama")
        for name, step in steps:
            try:
                step(folder)
            except Exception as exc:  # noqa: BLE001 - report and go on to the next step
                results["ok"] = False
                print(f"FAIL {name}: {type(exc).__name__}: {str(exc)[:400]}")
    figure("total_s", round(time.monotonic() - START, 1))
    print(json.dumps(results))
    return 0 if results["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
