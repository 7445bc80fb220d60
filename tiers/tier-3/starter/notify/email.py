"""A rendered e-mail."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Email:
    to: str
    subject: str
    body: str

    def __post_init__(self) -> None:
        if "@" not in self.to:
            raise ValueError(f"not an e-mail address: {self.to!r}")
        if "\n" in self.subject:
            raise ValueError("an e-mail subject must be a single line")
