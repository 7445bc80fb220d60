"""Runs one method of an adapter registered in the agent's environment, for SpecSnap.

    AGENT_PYTHON -I helper.py SPECSNAP_ROOT OP NAME  < request.json  > answer.json

Started by `specsnap.agentenv.remote` as the agent's account, with the agent environment's
Python, so the adapter's code runs there and never in SpecSnap's process. OP is `describe`,
`invocation` or `usage`; the request and the answer are JSON. Whatever the adapter prints goes to
stderr, so stdout carries the answer alone. Only the standard library and SpecSnap's adapter
types (`specsnap.agents.base`, from SPECSNAP_ROOT, after the environment's own packages) are used.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any


def main(argv: list[str]) -> int:
    specsnap_root, op, name = argv[1:4]
    answer = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # the adapter's own prints, at any level, land on stderr
    sys.stdout = sys.stderr
    sys.path.append(specsnap_root)
    request = json.load(sys.stdin)
    found = [ep for ep in entry_points(group="specsnap.agents") if ep.name == name]
    if not found:
        print(f"no adapter {name!r} in {sys.prefix}", file=sys.stderr)
        return 2
    adapter = found[0].load()()
    json.dump(run(op, adapter, request), answer)
    answer.close()
    return 0


def run(op: str, adapter: Any, request: dict[str, Any]) -> dict[str, Any]:
    if op == "describe":
        return {
            "passthrough_env": list(getattr(adapter, "passthrough_env", ())),
            "apis": list(getattr(adapter, "apis", ())),
            "web_tools": getattr(adapter, "web_tools", "not-disableable"),
            "uses_model": bool(getattr(adapter, "uses_model", True)),
        }
    ctx = context(request)
    if op == "invocation":
        invocation = adapter.invocation(ctx)
        stdin = invocation.stdin
        return {
            "argv": list(invocation.argv),
            "env": dict(invocation.env),
            "stdin": base64.b64encode(stdin).decode() if stdin is not None else None,
        }
    if op == "usage":
        usage = adapter.usage(ctx, Path(request["stdout"]), Path(request["stderr"]))
        return dict(usage.as_dict())
    raise SystemExit(f"unknown operation {op!r}")


def context(request: dict[str, Any]) -> Any:
    from specsnap.agents.base import ApiRoute, SessionContext

    return SessionContext(
        index=request["index"],
        sandbox=Path(request["sandbox"]),
        home=Path(request["home"]),
        prompt=request["prompt"],
        prompt_file=Path(request["prompt_file"]),
        usage_file=Path(request["usage_file"]),
        options=request["options"],
        routes={api: ApiRoute(**route) for api, route in request["routes"].items()},
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv))
