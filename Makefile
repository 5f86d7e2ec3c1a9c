# dittobench developer tasks. `make help` lists them; every target sets up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The real MCP memory server the mcp adapter's contract suite starts (npm, never committed).
MCP_SERVER := .cache/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js

.DEFAULT_GOAL := help
.PHONY: help setup run test lint typecheck imports unit bench format clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP) ## Create .venv and install dittobench with its dev tools

$(MCP_SERVER):
	@bash tests/adapters/install_mcp_memory_server.sh \
	  || echo "server-memory could not be installed from npm; the mcp adapter's suite will be skipped"

run: $(STAMP) ## The main job: score the built-in baseline harness on a small run
	$(BIN)/dittobench run --run-size small

test: lint typecheck imports unit ## Everything CI checks: lint, types, layering, tests

lint: $(STAMP) ## ruff lint and format check
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP) ## mypy, strict on every package and on the tests
	$(BIN)/mypy

imports: $(STAMP) ## import-linter: dependencies flow one way (docs/design.md, Layers)
	$(BIN)/lint-imports

unit: $(STAMP) $(MCP_SERVER) ## pytest: tests without servers on every core, then those with servers one at a time
	$(BIN)/pytest -q -n auto --dist worksteal --ignore=tests/integration --ignore=tests/browser
	$(BIN)/pytest -q tests/integration tests/browser

bench: $(STAMP) ## Print generator, grader, engine, baseline, service, web page, start-up and content figures (benchmarks/)
	$(BIN)/python benchmarks/cli_startup.py
	$(BIN)/python benchmarks/generate_speed.py
	$(BIN)/python benchmarks/grade_speed.py
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/baseline_speed.py
	$(BIN)/python benchmarks/content_study.py
	$(BIN)/python benchmarks/service_polls.py
	$(BIN)/python benchmarks/web_pages.py
	$(BIN)/python benchmarks/sandbox_startup.py

format: $(STAMP) ## Apply ruff formatting and safe fixes
	$(BIN)/ruff check --fix src tests benchmarks examples
	$(BIN)/ruff format src tests benchmarks examples

clean: ## Remove .venv and caches
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
