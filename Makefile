# The whole set-up: `make test`, `make demo`, `make ui`. Needs only python3 (3.11+), make and git.
# A bootstrap venv holds uv; uv then builds .venv/ from uv.lock, exactly (--frozen).
PYTHON ?= python3
UV_VERSION := 0.13.8
BOOT := .venv-bootstrap
UV := $(BOOT)/bin/uv
VENV := .venv
export RATERLAB_HOME ?= $(CURDIR)/.raterlab
export UV_PYTHON_DOWNLOADS := never
export DAGSTER_HOME := $(RATERLAB_HOME)/dagster

.PHONY: env test demo run ui lint format clean

$(UV):
	$(PYTHON) -m venv $(BOOT)
	$(BOOT)/bin/python -m pip install --quiet "uv==$(UV_VERSION)"

# --compile-bytecode: the packages' .pyc files are written once here, so a process does not
# compile them again at every import where PYTHONDONTWRITEBYTECODE is set.
$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --compile-bytecode --python $(PYTHON)
	touch $@

env: $(VENV)/.synced

test: env
	$(VENV)/bin/pytest

lint: env
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: env
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

demo: env
	$(VENV)/bin/python -m pipelines.demo

run: env
	$(VENV)/bin/python -m pipelines.execute $(JOB) $(STUDY)

ui: env
	$(VENV)/bin/python -m pipelines.instance
	$(VENV)/bin/dagster dev -w workspace.yaml $(if $(PORT),-p $(PORT))

clean:
	rm -rf $(VENV) $(BOOT) .raterlab
