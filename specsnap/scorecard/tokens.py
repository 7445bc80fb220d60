"""Token usage of a session, as docs/protocol.md counts it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TOKEN_SOURCES = ("metered", "reported", "unknown")
TOKEN_KEYS = ("input", "output", "cache_write", "cache_read")


@dataclass(frozen=True)
class TokenUsage:
    """Tokens one session used, and where the numbers came from."""

    input: int = 0
    output: int = 0
    cache_write: int = 0
    cache_read: int = 0
    source: str = "unknown"

    @classmethod
    def unknown(cls) -> TokenUsage:
        return cls(source="unknown")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TokenUsage:
        """The inverse of `as_dict` (a session record's `tokens`)."""
        return cls(
            data["input"], data["output"], data["cache_write"], data["cache_read"], data["source"]
        )

    def as_dict(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in (*TOKEN_KEYS, "source")}

    def counts(self) -> tuple[int, int, int, int]:
        return (self.input, self.output, self.cache_write, self.cache_read)

    def __add__(self, other: TokenUsage) -> TokenUsage:
        source = self.source if self.source == other.source else "unknown"
        return TokenUsage(
            self.input + other.input,
            self.output + other.output,
            self.cache_write + other.cache_write,
            self.cache_read + other.cache_read,
            source,
        )
