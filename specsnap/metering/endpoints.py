"""Which requests the meter forwards: an allowlist per API of the endpoints it can count.

A request is forwarded only when its method and path are one of its API's endpoints, every
query parameter is one that endpoint takes (with a value it allows), its body is plain (no
`Content-Encoding`, a `Content-Length`), and, for a billed endpoint, the body is a JSON object
the meter can read. Everything else is refused and recorded: Message Batches, files, legacy
completions, caches, field masks, compressed bodies. A billed endpoint's answer must carry usage
the meter can read, or the session's tokens are unknown (specsnap.metering.proxy).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: Any value (for parameters that page or filter a free listing).
ANY: frozenset[str] = frozenset()
#: Headers no API's answer may be shaped by here: a method override makes the API act on
#: another method than the one allowed; a field mask can strip the usage from an answer.
REFUSED_HEADERS = ("x-http-method-override", "x-goog-fieldmask")
#: A path segment: no dot segment (an upstream that normalises `..` would reach elsewhere), no
#: percent-encoding, no empty segment.
SEGMENT = r"[A-Za-z0-9_-][A-Za-z0-9._-]*"


@dataclass(frozen=True)
class Endpoint:
    """One request form the meter forwards: `method` and `path` (a regular expression over the
    path under the API's base URL), whether its answers are `billed` (they must carry usage),
    and the query parameters it takes, each with the values allowed (ANY: any value)."""

    method: str
    path: str
    billed: bool
    query: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def matches(self, method: str, path: str) -> bool:
        return method == self.method and re.fullmatch(self.path, path) is not None


def admit(
    endpoints: Sequence[Endpoint],
    method: str,
    path: str,
    query: Sequence[tuple[str, str]],
    headers: Mapping[str, str],
    body: bytes | None,
) -> Endpoint | str:
    """The endpoint a request is for, or why the meter refuses to forward it."""
    endpoint = next((e for e in endpoints if e.matches(method, path)), None)
    if endpoint is None:
        return f"{method} {path} is not an endpoint whose tokens SpecSnap's meter can count"
    for name, value in query:
        allowed = endpoint.query.get(name)
        if allowed is None or (allowed and value not in allowed):
            return f"{method} {path} does not take the query parameter {name}={value!r} here"
    lower = {name.lower(): value for name, value in headers.items()}
    for name in REFUSED_HEADERS:
        if name in lower:
            return f"the meter does not forward the {name} header"
    if lower.get("content-encoding", "identity").strip().lower() != "identity":
        return "the meter forwards only request bodies it can read (no Content-Encoding)"
    if "transfer-encoding" in lower:
        return "the meter forwards only request bodies with a Content-Length"
    if endpoint.billed and not _json_object(body):
        return f"the body of {method} {path} is not a JSON object"
    return endpoint


def _json_object(body: bytes | None) -> bool:
    try:
        return isinstance(json.loads(body or b""), dict)
    except ValueError:
        return False


def any_value(*names: str) -> dict[str, frozenset[str]]:
    """Query parameters that may take any value."""
    return {name: ANY for name in names}
