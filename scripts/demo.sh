#!/usr/bin/env bash
# Install SpecSnap into .venv and run the main job on the built-in default:
# tier 2 with the `notetaker` control agent (no model, no API key). Extra arguments go to
# `specsnap run` (e.g. --agent amnesiac, --seed 7).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
out="$(mktemp -d /tmp/demo-XXXXXX)"
chmod 711 "$out"
exec .venv/bin/specsnap run --tier 2 --agent notetaker --out "$out/run" "$@"
