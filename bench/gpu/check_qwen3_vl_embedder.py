"""GPU check of the Qwen3-VL-Embedding path (prepared for a lent H200; under 5 minutes; prints figures).

    python3 bench/gpu/check_qwen3_vl_embedder.py [--model DIR] [--texts 512] [--images 128]

Exercises the project's real loading and encoding code (mmeb_resources/qwen3_vl.py, which the
`Qwen3VLEmbedder` resource calls): CUDA placement, bf16 weights, batched text / image / text+image
inputs, right padding + last-token pooling. Weights: `--model` or MMEB_QWEN3_VL_EMBEDDING_2B when
that folder exists (the real 2B model); otherwise a small randomly initialised Qwen3-VL-style
checkpoint written on the spot (no internet needed; its vectors carry no meaning, the figures are
about the code path and the GPU). Needs only torch, transformers, tokenizers, numpy, pillow: no
dagster or pydantic. Exits 0 with a SKIP line when there is no CUDA device.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

QUERY = ("Given a question about organizational records, retrieve records or document pages that help "
         "answer the question.")
DOCUMENT = "Represent the user's input."


def _timed(fn, sync):
    sync()
    start = time.perf_counter()
    out = fn()
    sync()
    return out, time.perf_counter() - start


def _encode_all(loaded, items, instruction, batch, pixels):
    chunks = [loaded.encode(items[i:i + batch], instruction, min_pixels=pixels[0], max_pixels=pixels[1],
                            max_length=8192) for i in range(0, len(items), batch)]
    return np.concatenate(chunks)


def _weights(model: str, cpu: bool, work: Path) -> tuple[Path, str]:
    """The real checkpoint when `model` is a folder, else a random Qwen3-VL-style one written now."""
    from mmeb_assets.retrieval.tiny_qwen3_vl import write_tiny_qwen3_vl

    if model and Path(model).exists():
        return Path(model), "real weights"
    if model:
        print(f"weights not found at {model!r}: using a random Qwen3-VL-style checkpoint instead")
    start = time.perf_counter()
    size = dict(hidden_size=64, layers=2, vision_hidden=32, vision_layers=2) if cpu else \
        dict(hidden_size=1024, layers=8, vision_hidden=512, vision_layers=4)
    folder = write_tiny_qwen3_vl(work / "random-qwen3-vl", **size)
    return folder, f"random Qwen3-VL-style checkpoint {size}, written in {time.perf_counter() - start:.1f} s"


def _cases(n_texts: int, n_images: int, work: Path) -> dict[str, list[tuple[str, str | None]]]:
    from PIL import Image

    rng = np.random.default_rng(0)
    words = "budget forecast meeting slide figure table report deadline vendor emissions harbor recall".split()
    texts = [" ".join(rng.choice(words, 60)) for _ in range(n_texts)]
    images = []
    for i in range(n_images):
        path = work / f"page{i}.png"
        Image.fromarray((rng.random((448, 448, 3)) * 255).astype("uint8")).save(path)
        images.append(str(path))
    return {"text": [(t, None) for t in texts], "image": [("", p) for p in images],
            "text+image": [(texts[i % len(texts)], p) for i, p in enumerate(images)]}


def _measure(loaded, cases, batch: int, sync, dtype) -> None:
    pixels = (4 * 32 * 32, 448 * 448)
    _encode_all(loaded, cases["text+image"][:4], DOCUMENT, 4, pixels)  # warm-up (kernels, allocator)
    vectors = {}
    for name, items in cases.items():
        vectors[name], secs = _timed(lambda: _encode_all(loaded, items, DOCUMENT, batch, pixels), sync)
        norms = np.linalg.norm(vectors[name], axis=1)
        print(f"{name:<11} {len(items):>4} inputs, batch {batch}: {secs:.2f} s = {len(items) / secs:.1f} inputs/s"
              f"   norms {norms.min():.4f}..{norms.max():.4f}   finite {bool(np.isfinite(vectors[name]).all())}")
    texts = cases["text"][:128]
    queries, secs = _timed(lambda: _encode_all(loaded, texts, QUERY, 64, pixels), sync)
    print(f"queries     {len(texts):>4} inputs, batch 64: {len(texts) / secs:.1f} inputs/s   query vs document "
          f"cosine (same text) mean {float(np.mean(np.sum(queries * vectors['text'][:len(texts)], axis=1))):.4f}")
    single = np.concatenate([_encode_all(loaded, [item], DOCUMENT, 1, pixels) for item in cases["text+image"][:8]])
    agree = np.sum(single * vectors["text+image"][:len(single)], axis=1)
    print(f"batched vs one-at-a-time ({dtype}, text+image, {len(single)} inputs): cosine min {agree.min():.4f} "
          f"mean {agree.mean():.4f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=os.environ.get("MMEB_QWEN3_VL_EMBEDDING_2B", ""))
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--images", type=int, default=128)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--dry-run-cpu", action="store_true", help="check this script on a CPU (tiny sizes, fp32)")
    args = parser.parse_args()

    import torch
    import transformers

    print(f"torch {torch.__version__}  transformers {transformers.__version__}  cuda {torch.cuda.is_available()}")
    cpu = args.dry_run_cpu
    if not torch.cuda.is_available() and not cpu:
        print("SKIP: no CUDA device visible; nothing to check here")
        return 0
    print(f"device: {'cpu (dry run)' if cpu else torch.cuda.get_device_name(0)}")
    from mmeb_resources.qwen3_vl import load_qwen3_vl

    work = Path(tempfile.mkdtemp(prefix="qwen3vl-check-"))
    model_dir, kind = _weights(args.model, cpu, work)
    print(f"weights: {kind} at {model_dir}")
    sync = (lambda: None) if cpu else torch.cuda.synchronize
    loaded, load_s = _timed(lambda: load_qwen3_vl(str(model_dir), device="cpu" if cpu else "cuda",
                                                  dtype="bfloat16"), sync)
    param = next(loaded.model.parameters())
    n_params = sum(p.numel() for p in loaded.model.parameters())
    print(f"load: {load_s:.1f} s  params {n_params / 1e6:.1f} M  on {param.device}  dtype {param.dtype}  "
          f"dim {loaded.hidden_size}")
    if cpu:
        args.texts, args.images, args.batch = 16, 4, 4
    else:
        assert param.device.type == "cuda" and param.dtype == torch.bfloat16, "weights not on the GPU in bf16"
        torch.cuda.reset_peak_memory_stats()
    _measure(loaded, _cases(args.texts, args.images, work), args.batch, sync, param.dtype)
    if not cpu:
        print(f"peak GPU memory: {torch.cuda.max_memory_allocated() / 2**30:.2f} GiB")
    print("OK: Qwen3-VL embedder " + ("path ran on the CPU (dry run)" if cpu else
                                      "CUDA path ran (bf16, batched text / image / text+image)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
