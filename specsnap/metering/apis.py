"""The model APIs the meter knows: where each lives, which variables hold its key, what form a
key takes, which endpoints the meter forwards, and how to read the usage of one of its answers."""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from specsnap.metering import anthropic, gemini, openai
from specsnap.metering.endpoints import Endpoint
from specsnap.scorecard.model import Tokens

_KEY_ALPHABET = string.ascii_letters + string.digits


def _random(length: int, alphabet: str = _KEY_ALPHABET) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


@dataclass(frozen=True)
class Api:
    """One model API. `key_envs` are the caller's variables that may hold its key, the first
    set one winning; `upstream_env` names the caller's base URL for it; `key_header` is where
    the real key goes when the agent put the placeholder in the URL (a key never goes upstream
    in a URL, where logs and error messages repeat it)."""

    name: str
    upstream_env: str
    default_upstream: str
    key_envs: tuple[str, ...]
    placeholder: Callable[[], str]  # a fresh per-session key of the form a real one has
    usage: Callable[[Iterable[Mapping[str, Any]]], Tokens | None]
    prepare: Callable[[str, Any], Any]  # (path, JSON body) → the body to send upstream
    endpoints: tuple[Endpoint, ...]  # all the meter forwards (specsnap.metering.endpoints)
    key_header: str


APIS: Mapping[str, Api] = {
    "anthropic": Api(
        "anthropic",
        "ANTHROPIC_BASE_URL",
        "https://api.anthropic.com",
        ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"),
        lambda: "sk-ant-api03-" + _random(93, _KEY_ALPHABET + "-_") + "AA",
        anthropic.usage,
        anthropic.prepare,
        anthropic.ENDPOINTS,
        "x-api-key",
    ),
    "openai": Api(
        "openai",
        "OPENAI_BASE_URL",
        "https://api.openai.com/v1",
        ("OPENAI_API_KEY", "CODEX_API_KEY"),
        lambda: "sk-proj-" + _random(64),
        openai.usage,
        openai.prepare,
        openai.ENDPOINTS,
        "authorization",
    ),
    "gemini": Api(
        "gemini",
        "GOOGLE_GEMINI_BASE_URL",
        "https://generativelanguage.googleapis.com",
        ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
        lambda: "AIza" + _random(35, _KEY_ALPHABET + "-_"),
        gemini.usage,
        gemini.prepare,
        gemini.ENDPOINTS,
        "x-goog-api-key",
    ),
}

#: Every variable that may hold a model API key: none of them reaches a metered agent.
KEY_VARIABLES = frozenset(name for api in APIS.values() for name in api.key_envs)
