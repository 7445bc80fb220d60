"""The agent under test, installed from its own repository into an environment of its own.

- `install` — `install_agent`: runs the repository's install command as the run's unprivileged
  agent account (never as root, so the tier's hidden material stays unreadable to it) into a
  prefix of its own (a Python venv and an npm prefix), then hands the prefix to root, read-only
  for the agent; `agent_path` is the PATH its sessions get (the agent's environment, never
  SpecSnap's venv);
- `remote` — the adapters that install registered (`specsnap.agents` entry points in the agent's
  environment), served out of process: a helper process running as the agent account computes
  `invocation()` and `usage()` and answers plain JSON, so third-party adapter code never runs in
  SpecSnap's root process;
- `helper` — that helper, run by the agent environment's Python.
"""
