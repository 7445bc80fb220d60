#!/usr/bin/env bash
# Install SpecSnap with its development tools into .venv (and the tools its tests drive into
# .cache), then run every check:
# ruff (lint + format), mypy, import-linter (the core's own boundaries), and pytest.
#
#   scripts/test.sh [--soak] [PYTEST ARGS...]
#
# --soak also runs the long proofs (tests marked `soak`: each tier's validation, every seed of
# the control sweep, twenty repeats under load); README.md, Tests, gives their times.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = --soak ]; then
  export SPECSNAP_SOAK=1
  shift
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
.venv/bin/ruff check specsnap entrypoint tests benchmarks
.venv/bin/ruff format --check specsnap entrypoint tests benchmarks
.venv/bin/mypy
.venv/bin/lint-imports
# What the tests drive besides Python, into .cache (nothing system-wide): the leaderboard page's
# browser test uses Debian's Chromium with playwright-core, pinned (never `npx playwright
# install`, which fetches browsers); the adapter tests use the real agent CLIs, pinned. A tool
# that cannot be installed here makes its tests skip, naming it.
PLAYWRIGHT_CORE_VERSION=1.65.1
playwright=.cache/playwright/node_modules/playwright-core/package.json
if command -v npm >/dev/null &&
  [ "$(node -p "require('./$playwright').version" 2>/dev/null)" != "$PLAYWRIGHT_CORE_VERSION" ]; then
  npm install --silent --no-audit --no-fund --prefix .cache/playwright \
    "playwright-core@$PLAYWRIGHT_CORE_VERSION" >/dev/null
fi
# The loopback GitHub is held to GitHub's official REST and webhook descriptions, pinned
# (tests/support/github_contract.py reads them from .cache/openapi).
OCTOKIT_OPENAPI_VERSION=23.0.2
OCTOKIT_WEBHOOKS_VERSION=12.1.0
openapi=.cache/openapi/node_modules/@octokit
if command -v npm >/dev/null &&
  { [ "$(node -p "require('./$openapi/openapi/package.json').version" 2>/dev/null)" != "$OCTOKIT_OPENAPI_VERSION" ] ||
    [ "$(node -p "require('./$openapi/openapi-webhooks/package.json').version" 2>/dev/null)" != "$OCTOKIT_WEBHOOKS_VERSION" ]; }; then
  npm install --silent --no-audit --no-fund --prefix .cache/openapi \
    "@octokit/openapi@$OCTOKIT_OPENAPI_VERSION" "@octokit/openapi-webhooks@$OCTOKIT_WEBHOOKS_VERSION" >/dev/null
fi
bash scripts/install-agent-clis.sh
# One pytest worker per CPU (most tests wait on real subprocesses). The Docker tests share one
# engine and one image build across workers through a lock (tests/support/docker_engine.py).
.venv/bin/python -m pytest -n "${SPECSNAP_TEST_WORKERS:-auto}" --dist loadgroup --durations=30 "$@"
