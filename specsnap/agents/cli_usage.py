"""Token usage from what agent CLIs print: pure functions from captured text to Tokens.

Sessions are routinely cut off mid-stream, so every parser sums what was reported up
to the cut rather than insisting on a final summary, skips torn or foreign lines, and answers
`unknown` only when nothing at all was reported. docs/agents.md documents the fields read.

Over 400 lines: one parser per CLI, side by side, sharing the torn-line readers and the rules
above; a CLI's parser is found where the others are.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from specsnap.scorecard.model import Tokens

REPORTED: Final = "reported"

_ANTHROPIC_FIELDS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)


def parse_claude_stream(text: str) -> Tokens:
    """Tokens of a `claude -p --output-format stream-json --include-partial-messages` session.

    A completed session ends with a `result` line: its `modelUsage` (every model the session
    called, side calls included) or else its `usage` is the CLI's own total, and wins.
    A cut-off session has no result line, so the usage of each API message is summed instead,
    keyed by message id: the `assistant` lines repeat one message's message_start usage per
    content block (output_tokens 1), and the partial-message `stream_event` lines add the
    message_delta with the final cumulative counts; per message, the largest value of each
    field is the one reported last.
    """
    results: list[Tokens] = []
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
        return Tokens.unknown()
    return _total(_anthropic_usage(counts) for counts in messages.values())


def parse_codex_events(text: str) -> Tokens:
    """Tokens of a `codex exec --json` session: the sum of its `turn.completed` usages.

    Codex reports usage only when a turn completes, so a cut-off session has none here;
    `parse_codex_rollout` reads the session file that Codex updates after every model response.
    """
    turns = [
        _openai_usage(event["usage"])
        for event in _json_objects(text)
        if event.get("type") == "turn.completed" and isinstance(event.get("usage"), dict)
    ]
    return _total(turns) if turns else Tokens.unknown()


def parse_codex_rollout(text: str) -> Tokens:
    """Tokens of one Codex rollout file (`$CODEX_HOME/sessions/**/rollout-*.jsonl`): the sum of
    its per-response records. Codex appends a `token_count` event after every model response,
    with that response's `last_token_usage`; it repeats the event unchanged (e.g. when rate
    limits update), so a record counts only when the thread's `total_token_usage` moved.
    A cut-off session thus counts every response that completed before the cut."""
    responses: list[Tokens] = []
    previous_total: object = None
    for event in _json_objects(text):
        payload = event.get("payload")
        if event.get("type") != "event_msg" or not isinstance(payload, dict):
            continue
        info = payload.get("info")
        if payload.get("type") != "token_count" or not isinstance(info, dict):
            continue
        total, last = info.get("total_token_usage"), info.get("last_token_usage")
        if total == previous_total or not isinstance(last, dict):
            continue
        previous_total = total
        responses.append(_openai_usage(last))
    return _total(responses) if responses else Tokens.unknown()


def parse_gemini_stream(text: str) -> Tokens:
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
            return Tokens(max(0, prompt - cached), output, 0, cached, REPORTED)
    return Tokens.unknown()


def parse_gemini_chat(text: str) -> Tokens:
    """Tokens of one Gemini CLI chat recording (`~/.gemini/tmp/*/chats/**/*.jsonl`): the sum of
    its model messages' `tokens`, the last record of each message id winning (the CLI appends a
    message again when its token counts arrive)."""
    tokens_by_id: dict[str, dict[str, Any]] = {}
    for record in _json_objects(text):
        if record.get("type") == "gemini" and isinstance(record.get("tokens"), dict):
            tokens_by_id[str(record.get("id"))] = record["tokens"]
    if not tokens_by_id:
        return Tokens.unknown()
    return _total(
        Tokens(
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


def parse_aider_output(text: str) -> Tokens:
    """Tokens of an aider session, from the `Tokens: … sent, … received.` line it prints after
    each exchange (aider 0.86):

    - `sent` is the prompt as the provider counts it, cache reads included, plus the cache
      writes: `input = sent − cache write − cache hit`;
    - `received` is a running total over the session (aider never resets it), so each line
      adds what grew since the line before;
    - counts from 1,000 up are rounded (`1.2k`, `12k`), so the figures are approximate;
    - aider's own side requests (commit messages, chat summaries) print no line: only the
      meter counts them.
    """
    lines = list(_AIDER_TOKENS.finditer(text))
    if not lines:
        return Tokens.unknown()
    usages = []
    received_before = 0
    for match in lines:
        sent, write, hit = (_aider_count(match[k]) for k in ("sent", "write", "hit"))
        received = _aider_count(match["received"])
        output = received - received_before if received >= received_before else received
        received_before = received
        usages.append(Tokens(max(0, sent - write - hit), output, write, hit, REPORTED))
    return _total(usages)


# --- adapters ---


def parse_opencode_events(text: str) -> Tokens:
    """Tokens of an `opencode run --format json` session: the sum of its `step_finish` events,
    one per model response (`part.tokens`: input without cache reads, output, reasoning, and
    `cache.read`/`cache.write`). Reasoning counts as output, as the API bills it. A cut-off
    session counts every response that finished; side calls (the title) report nothing here."""
    steps = [
        _step_usage(event["part"]["tokens"])
        for event in _json_objects(text)
        if event.get("type") == "step_finish"
        and isinstance(event.get("part"), dict)
        and isinstance(event["part"].get("tokens"), dict)
    ]
    return _total(steps) if steps else Tokens.unknown()


def _step_usage(tokens: Mapping[str, Any]) -> Tokens:
    cache = tokens.get("cache")
    if not isinstance(cache, dict):
        cache = {}
    return Tokens(
        _count(tokens.get("input")),
        _count(tokens.get("output")) + _count(tokens.get("reasoning")),
        _count(cache.get("write")),
        _count(cache.get("read")),
        REPORTED,
    )


def parse_qwen_stream(text: str) -> Tokens:
    """Tokens of a `qwen --output-format stream-json` session. A completed session ends with a
    `result` line whose `usage` is the CLI's total, and wins; a cut-off one has none, so the
    usage of each `assistant` message (one per model response, keyed by id) is summed.
    `input_tokens` includes the cache reads, as OpenAI counts; SpecSnap's input excludes them."""
    result: Tokens | None = None
    messages: dict[str, Tokens] = {}
    for event in _json_objects(text):
        usage = event.get("usage") if event.get("type") == "result" else None
        message = event.get("message") if event.get("type") == "assistant" else None
        if isinstance(usage, dict):
            result = _qwen_usage(usage)
        elif isinstance(message, dict) and isinstance(message.get("usage"), dict):
            messages[str(message.get("id", len(messages)))] = _qwen_usage(message["usage"])
    if result is not None:
        return result
    return _total(messages.values()) if messages else Tokens.unknown()


def _qwen_usage(usage: Mapping[str, Any]) -> Tokens:
    keys = ("input_tokens", "output_tokens", "cache_creation_input_tokens")
    return _reads_included(usage, *keys, "cache_read_input_tokens")


def _reads_included(
    usage: Mapping[str, Any], input_key: str, output_key: str, write_key: str, read_key: str
) -> Tokens:
    """A report whose input count includes the cache reads (as OpenAI counts), as Tokens."""
    read = _count(usage.get(read_key))
    return Tokens(
        max(_count(usage.get(input_key)) - read, 0),
        _count(usage.get(output_key)),
        _count(usage.get(write_key)),
        read,
        REPORTED,
    )


def parse_copilot_events(text: str) -> Tokens:
    """Tokens of one Copilot CLI session log (`$COPILOT_HOME/session-state/<id>/events.jsonl`):
    the sum of its `session.usage_record` events, one per model response, written as each one
    ends (so a cut-off session counts every response that completed), each counted once by its
    `apiCallId`; a compaction's call writes no record, its `session.compaction_complete` event
    carries it (`compactionTokensUsed`). A resumed session appends to its log after a
    `session.resume` event: only the records after the last start or resume are this run's, but
    a process that only compacted the session by hand (`copilot --resume=ID -p /compact`, the
    first step of `--handoff compact`) counts with the resume after it. `inputTokens` includes
    the cache reads, as OpenAI counts."""
    calls: dict[str, Tokens] = {}
    asked = compacted = False  # this process: was it asked anything, did it compact by hand
    for event in _json_objects(text):
        kind, data = event.get("type"), event.get("data")
        data = data if isinstance(data, dict) else {}
        if kind == "session.start" or (kind == "session.resume" and (asked or not compacted)):
            calls = {}
        if kind in ("session.start", "session.resume"):
            asked = compacted = False
        asked = asked or kind == "user.message"
        if kind == "session.usage_record" and isinstance(data.get("usage"), dict):
            usage = data["usage"]
            key = str(usage.get("apiCallId", len(calls)))
        elif kind == "session.compaction_complete" and isinstance(
            data.get("compactionTokensUsed"), dict
        ):
            usage = data["compactionTokensUsed"]
            key = f"compaction {data.get('compactionAttemptId', len(calls))}"
            compacted = compacted or (data.get("trigger"), data.get("success")) == ("manual", True)
        else:
            continue
        if _has_counts(usage, ("inputTokens", "outputTokens")):
            calls[key] = _copilot_usage(usage)
    return _total(calls.values()) if calls else Tokens.unknown()


def _copilot_usage(usage: Mapping[str, Any]) -> Tokens:
    keys = ("inputTokens", "outputTokens", "cacheWriteTokens", "cacheReadTokens")
    return _reads_included(usage, *keys)


_COPILOT_SUMMARY = re.compile(
    r"^Tokens\s+↑ (?P<input>[\d.]+[km]?)(?: \((?P<cached>[\d.]+[km]?) cached\))?"
    r" • ↓ (?P<output>[\d.]+[km]?)",
    re.MULTILINE,
)


def parse_copilot_summary(text: str) -> Tokens:
    """Tokens of Copilot CLI's human summary at the end of a `copilot -p` session, `Tokens  ↑
    3.7k (2.5k cached) • ↓ 150`: the last such line (none in a cut-off session). The upward count
    includes the cached tokens; counts from 1,000 up are rounded (`3.7k`, `1.2m`); a resumed
    session's summary includes the sessions before it."""
    lines = list(_COPILOT_SUMMARY.finditer(text))
    if not lines:
        return Tokens.unknown()
    last = lines[-1]
    cached = _aider_count(last["cached"])
    total_in = _aider_count(last["input"])
    return Tokens(max(total_in - cached, 0), _aider_count(last["output"]), 0, cached, REPORTED)


_USAGE_KEY = re.compile(r'"usage"\s*:\s*(?=\{)')


def parse_mini_trajectory(text: str) -> Tokens:
    """Tokens of a mini-swe-agent trajectory (`mini -o FILE`), which mini rewrites whole after
    every step: each model response it holds keeps litellm's Chat Completions `usage`, and those
    are summed. A session cut off while mini rewrote the file leaves it torn, so the usage
    objects are found by their key rather than by loading the whole document: each one written
    before the tear counts (inside JSON strings a quote is escaped, so a command's text cannot
    pass for one). `prompt_tokens` includes the cache reads, as OpenAI counts; SpecSnap's input
    excludes them."""
    decoder = json.JSONDecoder()
    responses: list[Tokens] = []
    for key in _USAGE_KEY.finditer(text):
        try:
            usage, _ = decoder.raw_decode(text, key.end())
        except ValueError:
            continue
        if _has_counts(usage, ("prompt_tokens", "completion_tokens")):
            responses.append(_chat_usage(usage))
    return _total(responses) if responses else Tokens.unknown()


def _chat_usage(usage: Mapping[str, Any]) -> Tokens:
    details = usage.get("prompt_tokens_details")
    cache_read = _count(details.get("cached_tokens")) if isinstance(details, dict) else 0
    return Tokens(
        max(_count(usage.get("prompt_tokens")) - cache_read, 0),
        _count(usage.get("completion_tokens")),
        0,
        cache_read,
        REPORTED,
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


def _claude_result_total(event: Mapping[str, Any]) -> Tokens | None:
    by_model = event.get("modelUsage")
    if isinstance(by_model, dict) and by_model:
        return _total(
            Tokens(
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


def _anthropic_usage(usage: Mapping[str, Any]) -> Tokens:
    return Tokens(
        _count(usage.get("input_tokens")),
        _count(usage.get("output_tokens")),
        _count(usage.get("cache_creation_input_tokens")),
        _count(usage.get("cache_read_input_tokens")),
        REPORTED,
    )


def _openai_usage(usage: Mapping[str, Any]) -> Tokens:
    """OpenAI-style counts, where cached (and cache-written) tokens are part of input_tokens and
    reasoning tokens part of output_tokens."""
    cached = _count(usage.get("cached_input_tokens"))
    written = _count(usage.get("cache_write_input_tokens"))
    return Tokens(
        max(0, _count(usage.get("input_tokens")) - cached - written),
        _count(usage.get("output_tokens")),
        written,
        cached,
        REPORTED,
    )


def _total(usages: Iterable[Tokens]) -> Tokens:
    return sum(usages, Tokens(source=REPORTED))


def sum_known(usages: Iterable[Tokens]) -> Tokens:
    known = [u for u in usages if u.source == REPORTED]
    return _total(known) if known else Tokens.unknown()


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
    """A count as aider and Copilot CLI print it: `950`, `1.2k`, `3m`."""
    if not value:
        return 0
    scale = {"k": 1_000, "m": 1_000_000}.get(value[-1], 1)
    return round(float(value.rstrip("km")) * scale)


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
