#!/usr/bin/env bash
# Install the pinned agent CLIs of scripts/agent-clis.txt into .cache/agents, for the tests that
# run them offline against scripted model servers. Each lands behind a launcher in
# .cache/agents/bin/ (claude, codex, gemini, aider, opencode, qwen, copilot, grok, mini) that
# runs it on the right interpreter:
#   - Node.js >= 22 from the npm `node` package into .cache/agents/node when the system's is older;
#   - aider and mini-swe-agent each in its own virtual environment (.cache/agents/aider,
#     .cache/agents/mini-swe-agent), never SpecSnap's, built from a Python the unprivileged agent
#     account can run.
# Installs what is missing or at another version; a CLI whose package cannot install is reported
# and left out (its tests then skip, naming it). Prints each install's time.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$PWD/.cache/agents"
bin="$root/bin"
mkdir -p "$bin"
chmod 755 "$PWD/.cache" "$root" "$bin"

pin() { awk -v n="$1" '$1 == n { print $3 "@" $4 }' scripts/agent-clis.txt; }
version_of() { awk -v n="$1" '$1 == n { print $4 }' scripts/agent-clis.txt; }
failed=()

timed() {  # timed NAME COMMAND...: run, print the time taken, remember a failure
  local name="$1" start=$SECONDS
  shift
  if "$@"; then
    echo "install-agent-clis: $name ready ($((SECONDS - start)) s)"
  else
    echo "install-agent-clis: $name could not be installed; its tests will skip" >&2
    failed+=("$name")
  fi
}

launcher() {  # launcher NAME COMMAND...: .cache/agents/bin/NAME runs COMMAND with its arguments
  local name="$1"
  shift
  printf '#!/bin/sh\nexec %s "$@"\n' "$(printf '%q ' "$@")" >"$bin/$name.tmp"
  chmod 755 "$bin/$name.tmp" && mv "$bin/$name.tmp" "$bin/$name"
}

installed_npm_version() {  # installed_npm_version PREFIX PACKAGE
  node -e 'try { console.log(require(process.argv[1]).version) } catch { }' \
    "$1/node_modules/$2/package.json" 2>/dev/null
}

npm_install() {  # npm_install PREFIX PACKAGE@VERSION [NPM OPTION...]
  local package="${2%@*}" version="${2##*@}"
  [ "$(installed_npm_version "$1" "$package")" = "$version" ] && return 0
  npm install --prefix "$1" --no-audit --no-fund --loglevel=error "${@:3}" "$2" >/dev/null
}

# Node.js: the system's when it is >= 22, else the pinned `node` package.
system_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$system_major" -ge 22 ]; then
  node_bin="$(command -v node)"
else
  timed "node $(version_of node)" npm_install "$root/node" "$(pin node)"
  node_bin="$root/node/node_modules/node/bin/node"
fi
"$node_bin" --version >/dev/null 2>&1 || { echo "no Node.js >= 22 to run the CLIs on" >&2; exit 1; }

timed "claude $(version_of claude)" npm_install "$root" "$(pin claude)"
timed "codex $(version_of codex)" npm_install "$root" "$(pin codex)"
timed "gemini $(version_of gemini)" npm_install "$root" "$(pin gemini)"
# Claude Code's package installs a native executable, which needs no Node.js.
launcher claude "$root/node_modules/.bin/claude"
launcher codex "$node_bin" "$root/node_modules/@openai/codex/bin/codex.js"
launcher gemini "$node_bin" "$root/node_modules/@google/gemini-cli/bundle/gemini.js"

# opencode's package brings its native executable as an optional dependency per platform; its
# postinstall script then asks the registry for every other platform's (musl) build too and fails,
# so scripts are skipped and the launcher runs this platform's executable itself.
timed "opencode $(version_of opencode)" npm_install "$root" "$(pin opencode)" --ignore-scripts
opencode_exe="$(ls "$root"/node_modules/opencode-linux-*/bin/opencode 2>/dev/null | grep -v musl | head -1)"
[ -n "$opencode_exe" ] && launcher opencode "$opencode_exe"
timed "qwen $(version_of qwen)" npm_install "$root" "$(pin qwen)"
launcher qwen "$node_bin" "$root/node_modules/@qwen-code/qwen-code/cli-entry.js"
# GitHub Copilot CLI's package brings its native executable as an optional dependency per
# platform (its loader would look for it through Node.js): the launcher runs this platform's.
timed "copilot $(version_of copilot)" npm_install "$root" "$(pin copilot)"
copilot_exe="$(ls "$root"/node_modules/@github/copilot-linux-*/copilot 2>/dev/null | grep -v musl | head -1)"
[ -n "$copilot_exe" ] && launcher copilot "$copilot_exe"
timed "grok $(version_of grok)" npm_install "$root" "$(pin grok)"
launcher grok "$node_bin" "$root/node_modules/@vibe-kit/grok-cli/dist/index.js"

pypi_install() {  # pypi_install VENV PACKAGE VERSION: PACKAGE==VERSION in its own venv VENV
  local python
  python="$(command -v /usr/bin/python3 || command -v python3)"
  [ -x "$1/bin/python" ] || "$python" -m venv "$1" || return 1
  [ "$("$1/bin/python" -m pip show "$2" 2>/dev/null | awk '/^Version:/ { print $2 }')" = "$3" ] &&
    return 0
  "$1/bin/python" -m pip install --quiet --disable-pip-version-check "$2==$3" 2>&1 |
    grep -v '^WARNING: Location' >&2
  [ "${PIPESTATUS[0]}" -eq 0 ]
}
aider_install() {
  pypi_install "$root/aider" aider-chat "$(version_of aider)" && launcher aider "$root/aider/bin/aider"
}
timed "aider $(version_of aider)" aider_install
mini_install() {
  pypi_install "$root/mini-swe-agent" mini-swe-agent "$(version_of mini)" &&
    launcher mini "$root/mini-swe-agent/bin/mini"
}
timed "mini $(version_of mini)" mini_install

# The agent account runs these: everything readable and searchable by others.
chmod -R a+rX "$root"
[ "${#failed[@]}" -eq 0 ] || echo "install-agent-clis: not installed: ${failed[*]}" >&2
exit 0
