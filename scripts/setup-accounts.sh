#!/usr/bin/env bash
# Create the unprivileged accounts SpecSnap runs untrusted code as (root; idempotent).
#
#   agent pool   one account per concurrent run: agent sessions run as it, and every process of
#                it is ended when a session ends (names from SPECSNAP_AGENT_POOL, default
#                dev0..dev7; neutral names, so nothing tells an agent it is being benchmarked)
#   grading pool specsnap-subject0..11: graded code runs as these during grading, three
#                accounts per grading; no agent ever runs as one
#
# No account gets a home, a login shell, cron or at: nothing of theirs may start on its own.
set -euo pipefail
if [ "$(id -u)" != 0 ]; then
  echo "setup-accounts.sh: run as root" >&2
  exit 2
fi

# SPECSNAP_FIRST_UID=N gives the accounts the uids (and gids) N, N+1, ... instead of the system's
# next free ones. The Action's image sets it: processes in a container share the host's uids, so
# an image account must never share a uid with a host account that SpecSnap sweeps (kill(-1)).
next_uid="${SPECSNAP_FIRST_UID:-}"
add_account() {
  id -u "$1" >/dev/null 2>&1 && return 0
  local ids=()
  if [ -n "$next_uid" ]; then
    groupadd --system -K SYS_GID_MAX=65000 --gid "$next_uid" "$1"
    ids=(-K SYS_UID_MAX=65000 --uid "$next_uid" --gid "$next_uid")
    next_uid=$((next_uid + 1))
  else
    ids=(--user-group)
  fi
  useradd --system "${ids[@]}" --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin "$1"
}

deny_schedulers() {
  local deny
  for deny in /etc/cron.deny /etc/at.deny; do
    grep -qx "$1" "$deny" 2>/dev/null || echo "$1" >>"$deny"
  done
}

# Grading pool: graded code runs as these (three per grading; specsnap.grading.isolation).
for n in $(seq 0 11); do
  add_account "specsnap-subject$n"
  deny_schedulers "specsnap-subject$n"
done

# Agent pool.
pool="${SPECSNAP_AGENT_POOL:-dev0 dev1 dev2 dev3 dev4 dev5 dev6 dev7}"
for name in ${pool//,/ }; do
  add_account "$name"
  deny_schedulers "$name"
done
