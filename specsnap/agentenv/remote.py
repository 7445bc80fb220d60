"""Adapters registered in the agent's own environment, served out of process.

A third-party adapter is the agent's code, so it is untrusted: SpecSnap (root) never imports it.
Each call — `describe` (its declared traits), `invocation(ctx)`, `usage(ctx, stdout, stderr)` —
starts `helper.py` in the agent environment's Python, as the agent's account, with the request
as JSON on stdin; the helper answers JSON on stdout and SpecSnap checks every field. After each
call every process of the account is ended, so nothing the adapter starts outlives the call.

What the helper may touch is what the agent may touch at that moment: for `invocation` the
session's fresh HOME (handed to the agent first, as the session would right after), never the
sandbox (still root's); for `usage` a copy of the session's output and its HOME, after the
sandbox was taken back, so an adapter cannot change the graded repository after the session.
Only names are read from the environment's metadata (files), which executes nothing.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import distributions
from pathlib import Path
from typing import Any

import specsnap
from specsnap.accounts.identity import RunAs, give_to, take_back
from specsnap.agentenv.install import AgentEnv, agent_path, load_agent_env
from specsnap.agents.base import WEB_TOOLS, AgentAdapter, Invocation, SessionContext
from specsnap.errors import UsageError
from specsnap.scorecard.model import TOKEN_KEYS, Tokens
from specsnap.sessions.processes import end_account

HELPER = Path(__file__).with_name("helper.py")
GROUP = "specsnap.agents"
CALL_TIMEOUT_S = 60.0


class AdapterError(UsageError):
    """The agent's own adapter failed or answered something unusable (the agent's fault)."""


@dataclass(frozen=True)
class RemoteEnvironment:
    """The adapters `env`'s install registered (an `AgentEnvironment` for the registry)."""

    env: AgentEnv

    def adapter_names(self) -> list[str]:
        sites = [str(p) for p in (self.env.prefix / "venv" / "lib").glob("python3*/site-packages")]
        return sorted(
            {
                ep.name
                for dist in distributions(path=sites)
                for ep in dist.entry_points
                if ep.group == GROUP
            }
        )

    def adapter(self, name: str) -> AgentAdapter:
        traits = self.call("describe", name, {})
        passthrough = _strings(traits.get("passthrough_env"), "passthrough_env")
        apis = _strings(traits.get("apis"), "apis")
        web_tools = traits.get("web_tools")
        return RemoteAdapter(
            self,
            name,
            passthrough,
            apis,
            web_tools if web_tools in WEB_TOOLS else "not-disableable",
            traits.get("uses_model") is not False,
        )

    def call(
        self, op: str, name: str, request: Mapping[str, Any], cwd: Path | None = None
    ) -> dict[str, Any]:
        """Run `op` of adapter `name` in the helper; its JSON answer (AdapterError otherwise)."""
        account = self.env.run_as()
        argv = [str(self.env.python), "-I", str(HELPER), _specsnap_root(), op, name]
        env = {"PATH": agent_path(self.env), "LANG": "C.UTF-8", "HOME": str(cwd or "/")}
        try:
            done = subprocess.run(
                argv,
                input=json.dumps(request).encode(),
                capture_output=True,
                cwd=cwd or "/",
                env=env,
                timeout=CALL_TIMEOUT_S,
                start_new_session=True,
                check=False,
                user=_uid(account),
                group=_gid(account),
                extra_groups=_groups(account),
            )
        except subprocess.TimeoutExpired:
            raise AdapterError(
                f"adapter {name!r}: {op} took longer than {CALL_TIMEOUT_S:.0f}s"
            ) from None
        finally:
            if account is not None:
                end_account(account)
        if done.stderr:
            sys.stderr.write(done.stderr.decode(errors="replace"))
        if done.returncode != 0:
            raise AdapterError(f"adapter {name!r}: {op} failed (exit {done.returncode}); see above")
        try:
            answer = json.loads(done.stdout)
        except ValueError:
            raise AdapterError(f"adapter {name!r}: {op} did not answer JSON") from None
        if not isinstance(answer, dict):
            raise AdapterError(
                f"adapter {name!r}: {op} answered {type(answer).__name__}, not an object"
            )
        return answer


@dataclass(frozen=True)
class RemoteAdapter:
    """An adapter of the agent's environment; each method is a helper call."""

    environment: RemoteEnvironment
    name: str
    passthrough_env: tuple[str, ...]
    apis: tuple[str, ...]
    web_tools: str
    uses_model: bool

    def invocation(self, ctx: SessionContext) -> Invocation:
        account = self.environment.env.run_as()
        if account is not None:
            give_to(ctx.home, account)  # the session hands it over next anyway
        answer = self.environment.call("invocation", self.name, context_json(ctx), ctx.home)
        argv = _strings(answer.get("argv"), "argv")
        env = answer.get("env") or {}
        if (
            not argv
            or not isinstance(env, dict)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        ):
            raise AdapterError(f"adapter {self.name!r}: invocation needs argv and a string env")
        stdin = answer.get("stdin")
        return Invocation(
            argv, dict(env), base64.b64decode(stdin) if isinstance(stdin, str) else None
        )

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> Tokens:
        account = self.environment.env.run_as()
        if account is not None:
            take_back(ctx.sandbox, account)  # the session is over: the repository is graded as is
            ctx.sandbox.chmod(0o700)
        with tempfile.TemporaryDirectory(prefix="specsnap-usage-") as scratch:
            copies = {}
            for name, source in (("stdout", stdout), ("stderr", stderr)):
                copies[name] = str(Path(scratch, name))
                shutil.copyfile(source, copies[name])
            if account is not None:
                give_to(Path(scratch), account)
            request = {**context_json(ctx), **copies}
            try:
                answer = self.environment.call("usage", self.name, request, ctx.home)
            except AdapterError as exc:
                sys.stderr.write(f"{exc}; its tokens are unknown\n")
                return Tokens.unknown()
        return usage_from(answer)


def context_json(ctx: SessionContext) -> dict[str, Any]:
    """`ctx` as the helper receives it."""
    return {
        "index": ctx.index,
        "sandbox": str(ctx.sandbox),
        "home": str(ctx.home),
        "prompt": ctx.prompt,
        "prompt_file": str(ctx.prompt_file),
        "usage_file": str(ctx.usage_file),
        "options": dict(ctx.options),
        "routes": {
            api: {"base_url": r.base_url, "key_env": r.key_env, "key": r.key}
            for api, r in ctx.routes.items()
        },
    }


def usage_from(answer: Mapping[str, Any]) -> Tokens:
    """The helper's token counts; anything malformed is `unknown`. Only SpecSnap's meter
    meters, so an adapter's own figures are at most `reported`."""
    counts = [answer.get(key) for key in TOKEN_KEYS]
    valid = [c for c in counts if isinstance(c, int) and not isinstance(c, bool) and c >= 0]
    if answer.get("source") not in ("metered", "reported") or len(valid) != len(TOKEN_KEYS):
        return Tokens.unknown()
    return Tokens(valid[0], valid[1], valid[2], valid[3], source="reported")


def _strings(value: object, key: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise AdapterError(f"the adapter's {key} must be a list of strings, got {value!r}")
    return tuple(value)


def _specsnap_root() -> str:
    """The directory holding the `specsnap` package, so the helper can import its base types."""
    return str(Path(specsnap.__file__).resolve().parent.parent)


def _uid(account: RunAs | None) -> int | None:
    return account.uid if account is not None else None


def _gid(account: RunAs | None) -> int | None:
    return account.gid if account is not None else None


def _groups(account: RunAs | None) -> list[int] | None:
    return [] if account is not None else None


def environment_from(prefix: Path | None) -> RemoteEnvironment | None:
    """The agent environment at `prefix`, when one was installed there."""
    if prefix is None or not (prefix / "venv").is_dir():
        return None
    return RemoteEnvironment(load_agent_env(prefix))
