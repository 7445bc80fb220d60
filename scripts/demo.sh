#!/usr/bin/env bash
# Install SpecSnap into .venv and run the main job on the built-in default:
# tier 2 with the `notetaker` control agent (no model, no API key). Extra arguments go to
# `specsnap run` (e.g. --agent amnesiac, --seed 7).
#
# As root this first creates the unprivileged accounts the agent and the graded code run as
# (scripts/setup-accounts.sh, idempotent), as .ci/run does; as any other user the run's
# containment is best effort and its scorecard says so.
#
# The agent and the graded code run SpecSnap's own Python, so its venv must be readable by those
# accounts. A checkout they cannot read (under a private home such as /root) is installed, as a
# copy, into a venv they can read, /opt/specsnap-demo/venv, and its tiers are read from here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv=.venv
install=(-e .)
if [ "$(id -u)" = 0 ]; then
  bash scripts/setup-accounts.sh
  if ! setpriv --reuid=specsnap-subject0 --regid=specsnap-subject0 --clear-groups \
    test -r "$PWD/pyproject.toml"; then
    venv=/opt/specsnap-demo/venv
    install=(.)
    export SPECSNAP_TIERS_DIR="$PWD/tiers"
    echo "demo.sh: the run's accounts cannot read $PWD, so SpecSnap goes into $venv" >&2
  fi
fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet "${install[@]}"
out="$(mktemp -d /tmp/demo-XXXXXX)"
chmod 711 "$out"
exec "$venv/bin/specsnap" run --tier 2 --agent notetaker --out "$out/run" "$@"
