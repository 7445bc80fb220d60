"""GitHub's official webhook description as the contract of the deliveries the bot tests send.

The bot reads fields out of signed deliveries; a test delivery written by hand carries only the
fields the bot reads, so a bot reading a field GitHub does not send (or one GitHub may send as
null) would pass. This module holds each delivery to `@octokit/openapi-webhooks`, pinned and
installed by scripts/test.sh into `.cache/openapi` next to the REST description
(github_contract.py): the payload of event `issue_comment` with action `created` must match the
schema of the description's webhook `issue-comment-created`, `$ref`s resolved. Each problem is a
`Violation` naming the event and the field.

The webhooks description is OpenAPI 3.1 (JSON Schema 2020-12, nulls as `type: [..., "null"]`);
it still goes through the REST loader's `nullable` rewrite, so either spelling is understood.
Formats (`uri`, `date-time`) are not checked, as for the REST description.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.support import github_contract

Json = dict[str, Any]

WEBHOOKS_DIR = github_contract.PACKAGES / "openapi-webhooks" / "generated"
_BASE = "urn:github-webhooks-description"


@dataclass(frozen=True)
class Violation:
    event: str  # "issue_comment.created", or the event alone when it has no action
    field: str  # the JSON path of the offending value ("" for the whole payload)
    message: str

    def __str__(self) -> str:
        at = f" at {self.field}" if self.field else ""
        return f"{self.event} delivery{at}: {self.message}"


def available() -> str:
    """Why the description cannot be used ("" when it can): the tests that need it skip."""
    if not (WEBHOOKS_DIR / f"{github_contract.API_GITHUB_COM}.json").is_file():
        return f"GitHub's webhooks description is not installed in {WEBHOOKS_DIR} (scripts/test.sh)"
    return ""


@functools.cache
def description(name: str = github_contract.API_GITHUB_COM) -> Webhooks:
    """The webhooks description `name` (api.github.com, ghes-3.17 ...), loaded once per process."""
    return Webhooks(name, github_contract.load(WEBHOOKS_DIR / f"{name}.json"))


class Webhooks:
    """One loaded webhooks description: a payload schema per (event, action)."""

    def __init__(self, name: str, document: Json) -> None:
        self.name = name
        self.document = document
        self._registry = Registry().with_resource(_BASE, DRAFT202012.create_resource(document))

    def check(self, event: str, payload: Mapping[str, Any]) -> list[Violation]:
        """What in `payload`, delivered as `event` (the X-GitHub-Event header), GitHub's schema
        for that event and the payload's own `action` forbids."""
        action = payload.get("action")
        label = f"{event}.{action}" if isinstance(action, str) else event
        key = f"{event}-{action}" if isinstance(action, str) else event
        webhook = self.document["webhooks"].get(key.replace("_", "-"))
        if webhook is None:
            return [Violation(label, "", f"no such webhook in {self.name}'s description")]
        validator = self._validator(webhook["post"]["requestBody"]["content"]["application/json"]
                                    ["schema"]["$ref"])  # fmt: skip
        return [
            Violation(label, github_contract.field_of("", error), error.message)
            for error in sorted(validator.iter_errors(payload), key=lambda e: list(e.path))
        ]

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one Webhooks per description, never freed
    def _validator(self, ref: str) -> jsonschema.Draft202012Validator:
        """A validator for the schema `ref` (`#/components/schemas/...`), reached through the
        description's root so the `$ref`s inside it resolve."""
        schema = {"$ref": f"{_BASE}{ref}"}
        return jsonschema.Draft202012Validator(schema, registry=self._registry)


def require_valid(
    event: str, payload: Mapping[str, Any], name: str = github_contract.API_GITHUB_COM
) -> None:
    """Fail the test when GitHub (`name`: api.github.com, ghes-3.17 ...) would never deliver
    `payload` as `event` (skipped when the description is not installed, as the REST contract
    is)."""
    if available():
        return
    problems = description(name).check(event, payload)
    assert not problems, f"GitHub's {name} webhook schema forbids this delivery:\n" + "\n".join(
        str(p) for p in problems
    )
