"""Adapters for the real coding-agent CLIs: Claude Code, Codex, Gemini CLI and aider.

Each adapter starts its CLI headless in the sandbox (the runner's working directory) with every
permission prompt turned off, because nobody is there to answer, and reads the session's token
usage from what the CLI printed. Sessions are routinely cut off mid-stream (SPEC §1.3), so every
parser sums what was reported up to the cut rather than insisting on a final summary, skips torn
or foreign lines, and answers `unknown` only when nothing at all was reported.

Options (`--agent-opt KEY=VALUE`), common to all four: `bin` (the executable; default: looked up
on PATH), `model`, and `extra_args` (more arguments, split like a shell would). docs/agents.md
documents each CLI's argv, environment and token fields, and the CLI versions checked against.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import shutil
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from specsnap.agents.base import Invocation, SessionContext, TokenUsage, register_agent
from specsnap.errors import UsageError

REPORTED = "reported"

#: Claude Code without any traffic but its model's: no telemetry, error reports or update checks
#: (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC alone covers them; the others are belt and braces).
#: IS_SANDBOX=1 is the CLI's own escape from its refusal of --dangerously-skip-permissions as root.
CLAUDE_ENV: Mapping[str, str] = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
    "IS_SANDBOX": "1",
}

#: Gemini CLI reads these only from a settings file; it is written into the session's fresh HOME.
GEMINI_SETTINGS: Mapping[str, Any] = {
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
}
#: Headless Gemini CLI needs an explicit auth type once GOOGLE_GEMINI_BASE_URL is set (0.61.0
#: rejects the "gateway" type it infers); `--agent-opt auth=vertex-ai` etc. chooses another.
GEMINI_DEFAULT_AUTH = "gemini-api-key"


# --- parsers: pure functions from captured text to TokenUsage ---


def parse_claude_stream(text: str) -> TokenUsage:
    """Tokens of a `claude -p --output-format stream-json --include-partial-messages` session.

    A completed session ends with a `result` line: its `modelUsage` (every model the session
    called, side calls included) or else its `usage` is the CLI's own total, and wins.
    A cut-off session has no result line, so the usage of each API message is summed instead,
    keyed by message id: the `assistant` lines repeat one message's message_start usage per
    content block (output_tokens 1), and the partial-message `stream_event` lines add the
    message_delta with the final cumulative counts; per message, the largest value of each
    field is the one reported last.
    """
    results: list[TokenUsage] = []
    messages: dict[str, dict[str, int]] = {}
    last_started = ""
    for event in _json_objects(text):
        if event.get("type") == "result":
            total = _claude_result_total(event)
            if total is not None:
                results.append(total)
            continue
        message_id, usage = _claude_message_usage(event, last_started)
        if _stream_event_type(event) == "message_start":
            last_started = message_id
        if message_id and isinstance(usage, dict) and _has_counts(usage, _ANTHROPIC_FIELDS):
            seen = messages.setdefault(message_id, {})
            for key in _ANTHROPIC_FIELDS:
                seen[key] = max(seen.get(key, 0), _count(usage.get(key)))
    if results:
        return results[-1]
    if not messages:
        return TokenUsage.unknown()
    return _total(_anthropic_usage(counts) for counts in messages.values())


def parse_codex_events(text: str) -> TokenUsage:
    """Tokens of a `codex exec --json` session: the sum of its `turn.completed` usages.

    Codex reports usage only when a turn completes, so a cut-off session has none here;
    `parse_codex_rollout` reads the session file that Codex updates after every model response.
    """
    turns = [
        _openai_usage(event["usage"])
        for event in _json_objects(text)
        if event.get("type") == "turn.completed" and isinstance(event.get("usage"), dict)
    ]
    return _total(turns) if turns else TokenUsage.unknown()


def parse_codex_rollout(text: str) -> TokenUsage:
    """Tokens of one Codex rollout file (`$CODEX_HOME/sessions/**/rollout-*.jsonl`): its last
    `token_count` event's `total_token_usage`, which Codex keeps cumulative for the thread."""
    last: dict[str, Any] | None = None
    for event in _json_objects(text):
        payload = event.get("payload")
        if event.get("type") == "event_msg" and isinstance(payload, dict):
            info = payload.get("info")
            if payload.get("type") == "token_count" and isinstance(info, dict):
                total = info.get("total_token_usage")
                last = total if isinstance(total, dict) else last
    return TokenUsage.unknown() if last is None else _openai_usage(last)


def parse_gemini_stream(text: str) -> TokenUsage:
    """Tokens of a `gemini --output-format stream-json` session, from its final `result` stats.

    `input_tokens` counts cached tokens too, `input` does not; thinking tokens appear only in
    `total_tokens`, and are billed as output, so output is `total_tokens - input_tokens`.
    A cut-off session has no result; `parse_gemini_chat` reads the CLI's chat recording.
    """
    for event in reversed(list(_json_objects(text))):
        stats = event.get("stats")
        if event.get("type") == "result" and isinstance(stats, dict):
            prompt, cached = _count(stats.get("input_tokens")), _count(stats.get("cached"))
            output = _count(stats.get("output_tokens"))
            output = max(output, _count(stats.get("total_tokens")) - prompt)
            return TokenUsage(max(0, prompt - cached), output, 0, cached, REPORTED)
    return TokenUsage.unknown()


def parse_gemini_chat(text: str) -> TokenUsage:
    """Tokens of one Gemini CLI chat recording (`~/.gemini/tmp/*/chats/**/*.jsonl`): the sum of
    its model messages' `tokens`, the last record of each message id winning (the CLI appends a
    message again when its token counts arrive)."""
    tokens_by_id: dict[str, dict[str, Any]] = {}
    for record in _json_objects(text):
        if record.get("type") == "gemini" and isinstance(record.get("tokens"), dict):
            tokens_by_id[str(record.get("id"))] = record["tokens"]
    if not tokens_by_id:
        return TokenUsage.unknown()
    return _total(
        TokenUsage(
            max(0, _count(t.get("input")) - _count(t.get("cached"))) + _count(t.get("tool")),
            _count(t.get("output")) + _count(t.get("thoughts")),
            0,
            _count(t.get("cached")),
            REPORTED,
        )
        for t in tokens_by_id.values()
    )


_AIDER_TOKENS = re.compile(
    r"^Tokens: (?P<sent>[\d.]+k?) sent"
    r"(?:, (?P<write>[\d.]+k?) cache write)?"
    r"(?:, (?P<hit>[\d.]+k?) cache hit)?"
    r", (?P<received>[\d.]+k?) received\.",
    re.MULTILINE,
)


def parse_aider_output(text: str) -> TokenUsage:
    """Tokens of an aider session: the sum of the `Tokens: ... sent, ... received.` lines it
    prints after each exchange. Aider rounds counts of 1,000 and more (`1.2k`, `12k`), so these
    are approximate; its `sent` already includes the cache writes."""
    lines = list(_AIDER_TOKENS.finditer(text))
    if not lines:
        return TokenUsage.unknown()
    return _total(
        TokenUsage(
            max(0, _aider_count(m["sent"]) - _aider_count(m["write"])),
            _aider_count(m["received"]),
            _aider_count(m["write"]),
            _aider_count(m["hit"]),
            REPORTED,
        )
        for m in lines
    )


# --- adapters ---


@register_agent("claude-code")
class ClaudeCode:
    """Anthropic's Claude Code (`claude`), prompt on stdin."""

    name: str = "claude-code"
    passthrough_env: tuple[str, ...] = (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
        "ANTHROPIC_MODEL",
        "CLAUDE_CODE_OAUTH_TOKEN",
    )

    def invocation(self, ctx: SessionContext) -> Invocation:
        argv = [
            _executable(ctx, "claude"),
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-partial-messages",
            "--dangerously-skip-permissions",
            *_model(ctx, "--model"),
            *_extra_args(ctx),
        ]
        return Invocation(tuple(argv), dict(CLAUDE_ENV), ctx.prompt.encode())

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> TokenUsage:
        return parse_claude_stream(_read(stdout))


@register_agent("codex")
class Codex:
    """OpenAI's Codex CLI (`codex exec`), prompt on stdin. Codex 0.171 ignores OPENAI_BASE_URL;
    `--agent-opt base_url=URL` sets its `openai_base_url` instead."""

    name: str = "codex"
    passthrough_env: tuple[str, ...] = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_API_KEY")

    def invocation(self, ctx: SessionContext) -> Invocation:
        argv = [
            _executable(ctx, "codex"),
            "exec",
            "--json",
            # The SpecSnap sandbox is the isolation; Codex's own sandbox would keep .git read-only.
            "--dangerously-bypass-approvals-and-sandbox",
            "--cd",
            str(ctx.sandbox),
            *_codex_base_url(ctx),
            *_model(ctx, "--model"),
            *_extra_args(ctx),
            "-",
        ]
        return Invocation(tuple(argv), {}, ctx.prompt.encode())

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> TokenUsage:
        reported = parse_codex_events(_read(stdout))
        if reported.source == REPORTED:
            return reported
        rollouts = sorted((ctx.home / ".codex" / "sessions").glob("**/rollout-*.jsonl"))
        return _sum_known(parse_codex_rollout(_read(path)) for path in rollouts)


@register_agent("gemini-cli")
class GeminiCli:
    """Google's Gemini CLI (`gemini -p`), prompt as the -p argument."""

    name: str = "gemini-cli"
    passthrough_env: tuple[str, ...] = (
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "GOOGLE_GEMINI_BASE_URL",
        "GOOGLE_GENAI_USE_VERTEXAI",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "GOOGLE_APPLICATION_CREDENTIALS",
    )

    def invocation(self, ctx: SessionContext) -> Invocation:
        """The command line; also writes the CLI's settings into the fresh HOME (no usage
        statistics, no update checks), the only place Gemini CLI reads them from."""
        settings = ctx.home / ".gemini" / "settings.json"
        if not settings.exists():
            auth = {"auth": {"selectedType": ctx.options.get("auth", GEMINI_DEFAULT_AUTH)}}
            settings.parent.mkdir(parents=True, exist_ok=True)
            content = json.dumps({**GEMINI_SETTINGS, "security": auth}, indent=2)
            settings.write_text(content + "\n", encoding="utf-8")
        argv = [
            _executable(ctx, "gemini"),
            "--prompt",
            ctx.prompt,
            "--output-format",
            "stream-json",
            "--yolo",
            "--skip-trust",
            *_model(ctx, "--model"),
            *_extra_args(ctx),
        ]
        return Invocation(tuple(argv), {})

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> TokenUsage:
        reported = parse_gemini_stream(_read(stdout))
        if reported.source == REPORTED:
            return reported
        chats = sorted((ctx.home / ".gemini" / "tmp").glob("*/chats/**/*.jsonl"))
        return _sum_known(parse_gemini_chat(_read(path)) for path in chats)


@register_agent("aider")
class Aider:
    """Aider (`aider --message-file`), prompt from the session's prompt file."""

    name: str = "aider"
    passthrough_env: tuple[str, ...] = (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_API_BASE",
        "OPENAI_API_KEY",
        "OPENAI_API_BASE",
        "GEMINI_API_KEY",
        "DEEPSEEK_API_KEY",
        "OPENROUTER_API_KEY",
    )

    def invocation(self, ctx: SessionContext) -> Invocation:
        argv = [
            _executable(ctx, "aider"),
            "--message-file",
            str(ctx.prompt_file),
            "--yes-always",
            "--no-pretty",
            "--no-stream",  # streamed replies may carry no provider usage; aider then estimates
            "--no-check-update",
            "--no-show-release-notes",
            "--analytics-disable",
            "--no-gitignore",
            "--git-commit-verify",  # aider commits with --no-verify by default: a protocol breach
            "--chat-history-file",
            str(ctx.home / ".aider.chat.history.md"),
            "--input-history-file",
            str(ctx.home / ".aider.input.history"),
            *_model(ctx, "--model"),
            *_extra_args(ctx),
        ]
        return Invocation(tuple(argv), {})

    def usage(self, ctx: SessionContext, stdout: Path, stderr: Path) -> TokenUsage:
        return parse_aider_output(_read(stdout))


# --- helpers ---

_ANTHROPIC_FIELDS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)


def _stream_event_type(event: Mapping[str, Any]) -> object:
    stream = event.get("event")
    return (
        stream.get("type")
        if event.get("type") == "stream_event" and isinstance(stream, dict)
        else None
    )


def _claude_message_usage(event: Mapping[str, Any], last_started: str) -> tuple[str, object]:
    """(API message id, usage) of one stream-json line, or ("", None) for other lines. A
    message_delta without `api_message_id` (older CLIs) belongs to the last message started."""
    message = event.get("message")
    kind = _stream_event_type(event)
    if event.get("type") == "assistant" and isinstance(message, dict):
        return str(message.get("id") or ""), message.get("usage")
    if kind == "message_start":
        started = event["event"].get("message")
        if isinstance(started, dict):
            return str(started.get("id") or ""), started.get("usage")
    if kind == "message_delta":
        return str(event.get("api_message_id") or last_started), event["event"].get("usage")
    return "", None


def _claude_result_total(event: Mapping[str, Any]) -> TokenUsage | None:
    by_model = event.get("modelUsage")
    if isinstance(by_model, dict) and by_model:
        return _total(
            TokenUsage(
                _count(m.get("inputTokens")),
                _count(m.get("outputTokens")),
                _count(m.get("cacheCreationInputTokens")),
                _count(m.get("cacheReadInputTokens")),
                REPORTED,
            )
            for m in by_model.values()
            if isinstance(m, dict)
        )
    usage = event.get("usage")
    return _anthropic_usage(usage) if isinstance(usage, dict) else None


def _anthropic_usage(usage: Mapping[str, Any]) -> TokenUsage:
    return TokenUsage(
        _count(usage.get("input_tokens")),
        _count(usage.get("output_tokens")),
        _count(usage.get("cache_creation_input_tokens")),
        _count(usage.get("cache_read_input_tokens")),
        REPORTED,
    )


def _openai_usage(usage: Mapping[str, Any]) -> TokenUsage:
    """OpenAI-style counts, where cached (and cache-written) tokens are part of input_tokens and
    reasoning tokens part of output_tokens."""
    cached = _count(usage.get("cached_input_tokens"))
    written = _count(usage.get("cache_write_input_tokens"))
    return TokenUsage(
        max(0, _count(usage.get("input_tokens")) - cached - written),
        _count(usage.get("output_tokens")),
        written,
        cached,
        REPORTED,
    )


def _total(usages: Iterable[TokenUsage]) -> TokenUsage:
    return sum(usages, TokenUsage(source=REPORTED))


def _sum_known(usages: Iterable[TokenUsage]) -> TokenUsage:
    known = [u for u in usages if u.source == REPORTED]
    return _total(known) if known else TokenUsage.unknown()


def _count(value: object) -> int:
    """A token count as reported; anything but a non-negative number counts as 0."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    if not math.isfinite(value) or value < 0:
        return 0
    return int(value)


def _has_counts(usage: Mapping[str, Any], fields: Iterable[str]) -> bool:
    return any(isinstance(usage.get(key), int | float) for key in fields)


def _aider_count(value: str | None) -> int:
    if not value:
        return 0
    if value.endswith("k"):
        return round(float(value[:-1]) * 1000)
    return int(float(value))


def _json_objects(text: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSON-lines text; torn, empty and non-JSON lines are skipped."""
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            yield value


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _executable(ctx: SessionContext, name: str) -> str:
    if ctx.options.get("bin"):
        return ctx.options["bin"]
    found = shutil.which(name)
    if found is None:
        raise UsageError(
            f"the {name!r} executable is not on PATH; install it, or name it with "
            f"--agent-opt bin=/path/to/{name}"
        )
    return found


def _codex_base_url(ctx: SessionContext) -> list[str]:
    url = ctx.options.get("base_url")
    return ["--config", f"openai_base_url={json.dumps(url)}"] if url else []


def _model(ctx: SessionContext, flag: str) -> list[str]:
    model = ctx.options.get("model")
    return [flag, model] if model else []


def _extra_args(ctx: SessionContext) -> list[str]:
    return shlex.split(ctx.options.get("extra_args", ""))
