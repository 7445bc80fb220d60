#!/usr/bin/env bash
# Install SpecSnap with its development tools into .venv, then run every check:
# ruff (lint + format), mypy, import-linter (the core's own boundaries), and pytest.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
.venv/bin/ruff check specsnap entrypoint tests benchmarks
.venv/bin/ruff format --check specsnap entrypoint tests benchmarks
.venv/bin/mypy
.venv/bin/lint-imports
# One pytest worker per CPU (most tests wait on real subprocesses). The Docker tests share one
# engine and one image build across workers through a lock (tests/functional/test_docker_action.py).
.venv/bin/python -m pytest -n "${SPECSNAP_TEST_WORKERS:-auto}" --dist loadgroup --durations=15 "$@"
