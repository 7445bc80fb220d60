"""Token usage of a session, and the effective-token arithmetic of SPEC §2."""

from __future__ import annotations

from dataclasses import dataclass

TOKEN_SOURCES = ("metered", "reported", "unknown")


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

    def __add__(self, other: TokenUsage) -> TokenUsage:
        source = self.source if self.source == other.source else "unknown"
        return TokenUsage(
            self.input + other.input,
            self.output + other.output,
            self.cache_write + other.cache_write,
            self.cache_read + other.cache_read,
            source,
        )
