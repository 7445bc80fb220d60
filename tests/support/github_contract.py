"""GitHub's official REST description as the loopback GitHub's contract.

The loopback server (github_server.py) answers what its routes were written to answer; this module
holds every exchange to what GitHub publishes instead: the `@octokit/openapi` descriptions, pinned
and installed by scripts/test.sh into `.cache/openapi` (never fetched at test time). For one
exchange it finds the operation for (method, path) in the chosen description (api.github.com, or
one GHES version), then checks the request (path and query parameters against their schemas, the
JSON body against the requestBody schema) and the response (its status is one the operation
declares, its JSON body matches that status's schema), resolving `$ref`s. Each problem is a
`Violation` naming the operation and the field.

Not checked: headers (auth, rate limits, pagination links), and statuses GitHub documents for every
endpoint rather than per operation (401, rate limits, 5xx) when the server was told to fake them.

The descriptions are OpenAPI 3.0 (`nullable`), so they are rewritten once to JSON Schema on load;
a description takes ~2-3 s to load and convert and is cached per process.
"""

from __future__ import annotations

import atexit
import functools
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import jsonschema
from referencing import Registry
from referencing.jsonschema import DRAFT4

Json = dict[str, Any]

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ROOT / ".cache" / "openapi" / "node_modules" / "@octokit"
REST_DIR = PACKAGES / "openapi" / "generated"
API_GITHUB_COM = "api.github.com"
#: The GitHub Enterprise Server versions SpecSnap supports (docs/bot.md, docs/action.md): the
#: loopback GitHub plays each one against that version's own description (`ghes`).
GHES_VERSIONS = ("3.17", "3.18", "3.19")
#: Workflow dispatch, the one operation whose answer differs between api.github.com and GHES.
DISPATCH = "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches"
#: Statuses any endpoint may answer (GitHub's REST overview: bad credentials, no access or no
#: such resource, rate limits, server errors) even where an operation does not list them.
GENERAL_STATUSES = frozenset({401, 403, 404, 429, 500, 502, 503})
_BASE = "urn:github-description"
_JSON = "application~1json"


@dataclass(frozen=True)
class Violation:
    operation: str  # operationId, or "METHOD path" when no operation matches
    where: str  # "request path", "request query", "request body", "response 201", ...
    field: str  # the JSON path of the offending value ("" for the whole thing)
    message: str

    def __str__(self) -> str:
        at = f" at {self.field}" if self.field else ""
        return f"{self.operation}: {self.where}{at}: {self.message}"


_EXCHANGES: list[int] = [0]
_OPERATIONS: set[str] = set()


def count(contract: Contract, method: str, path: str) -> None:
    """Tally one validated exchange; the total is printed when the process ends (`pytest -s`)."""
    found = contract.operation(method, path)
    if not _EXCHANGES[0]:
        atexit.register(_report, contract.load_seconds)
    _EXCHANGES[0] += 1
    _OPERATIONS.add(f"{contract.name} {found[0].id if found else method + ' ' + path}")


def _report(load_seconds: float) -> None:
    operations = ", ".join(sorted(_OPERATIONS))
    print(f"\ngithub contract: {_EXCHANGES[0]} exchanges validated over {len(_OPERATIONS)} "
          f"operations (description loaded in {load_seconds} s): {operations}")  # fmt: skip


def available() -> str:
    """Why the descriptions cannot be used ("" when they can): the tests that need them skip."""
    if not (REST_DIR / f"{API_GITHUB_COM}.json").is_file():
        return f"GitHub's OpenAPI descriptions are not installed in {REST_DIR} (scripts/test.sh)"
    return ""


@functools.cache
def description(name: str = API_GITHUB_COM) -> Contract:
    """The REST description `name` (api.github.com, ghes-3.17 ...), loaded once per process."""
    return Contract(name, load(REST_DIR / f"{name}.json"))


def ghes(version: str) -> str:
    """The name of GHES `version`'s description ("3.18": "ghes-3.18"), for the versions SpecSnap
    supports only: any other version is a mistake in the test."""
    if version not in GHES_VERSIONS:
        raise ValueError(
            f"GHES {version} is not one SpecSnap supports ({', '.join(GHES_VERSIONS)})"
        )
    return f"ghes-{version}"


def load(path: Path) -> Json:
    """A description as JSON Schema, with the seconds it took (shared with webhook_contract)."""
    started = time.monotonic()
    document = _json_schema(json.loads(path.read_text()))
    document["x-load-seconds"] = round(time.monotonic() - started, 2)
    return document


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` as JSON Schema says it: null is one more allowed type."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False) is True:
        if "enum" in node:
            node["enum"] = [*node["enum"], None]
        if isinstance(node.get("type"), str):
            node["type"] = [node["type"], "null"]
        elif "type" not in node:
            node = {"anyOf": [{"type": "null"}, node]}
    return node


@dataclass(frozen=True)
class Operation:
    id: str
    method: str
    template: str
    pointer: str  # JSON pointer of the operation object in the description
    spec: Json


class Contract:
    """One loaded description and the operations in it, matched by method and concrete path."""

    def __init__(self, name: str, document: Json) -> None:
        self.name = name
        self.document = document
        self.load_seconds: float = document.get("x-load-seconds", 0.0)
        self._registry = Registry().with_resource(_BASE, DRAFT4.create_resource(document))
        self._routes = [_compile(method, template, spec) for template, methods in
                        document["paths"].items() for method, spec in methods.items()
                        if method in ("get", "post", "patch", "put", "delete")]  # fmt: skip

    def operation(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation serving `method path`, with the path parameters it binds."""
        matches = [(op, m.groupdict()) for op, regex in self._routes
                   if op.method == method.lower() and (m := regex.fullmatch(path))]  # fmt: skip
        # A literal segment beats a parameter (`/issues/comments/1` is not issue "comments").
        matches.sort(key=lambda pair: len(pair[1]))
        return matches[0] if matches else None

    def returns_run_details(self) -> bool:
        """Whether workflow dispatch may answer `return_run_details: true` with the run (200 and
        its ids and URLs): the description declares the field and that answer. api.github.com's
        does; GHES 3.17-3.19's declare neither (only 204, no body)."""
        template = DISPATCH.replace("~", "~0").replace("/", "~1")
        pointer = f"/paths/{quote(template)}/post"
        schema, _ = self._deref(f"{pointer}/requestBody/content/{_JSON}/schema")
        declared = "return_run_details" in schema.get("properties", {})
        return declared and "200" in self._resolve(pointer)["responses"]

    # -- requests ---------------------------------------------------------------------------
    def check_request(
        self, method: str, path: str, query: dict[str, list[str]], body: Any
    ) -> list[Violation]:
        found = self.operation(method, path)
        if found is None:
            message = f"no such operation in {self.name}'s description"
            return [Violation(f"{method} {path}", "request", "", message)]
        op, bound = found
        problems = self._check_parameters(op, "path", {k: [v] for k, v in bound.items()})
        problems += self._check_parameters(op, "query", query)
        return problems + self._check_body(op, body)

    def _parameters(self, op: Operation, where: str) -> dict[str, tuple[Json, str]]:
        params = [self._deref(f"{op.pointer}/parameters/{i}")
                  for i in range(len(op.spec.get("parameters", [])))]  # fmt: skip
        return {p["name"]: (p, at) for p, at in params if p["in"] == where}

    def _check_parameters(
        self, op: Operation, where: str, given: dict[str, list[str]]
    ) -> list[Violation]:
        declared = self._parameters(op, where)
        problems = [Violation(op.id, f"request {where}", name, "not a parameter of the operation")
                    for name in given if name not in declared]  # fmt: skip
        for name, (param, at) in declared.items():
            if name not in given:
                if param.get("required"):
                    problems.append(Violation(op.id, f"request {where}", name, "is required"))
                continue
            value = _coerce(given[name][0], param.get("schema", {}))
            problems += self._check_value(op, f"request {where}", value, f"{at}/schema", name)
        return problems

    def _check_body(self, op: Operation, body: Any) -> list[Violation]:
        if "requestBody" not in op.spec:
            if body not in (None, {}):
                return [Violation(op.id, "request body", "", "the operation takes no body")]
            return []
        request_body, at = self._deref(f"{op.pointer}/requestBody")
        if body is None:
            required = request_body.get("required")
            return [Violation(op.id, "request body", "", "is required")] if required else []
        if "application/json" not in request_body.get("content", {}):
            return []
        return self._check_value(op, "request body", body, f"{at}/content/{_JSON}/schema")

    # -- responses --------------------------------------------------------------------------
    def check_response(self, method: str, path: str, status: int, body: Any) -> list[Violation]:
        found = self.operation(method, path)
        if found is None:
            return []  # already reported for the request
        op = found[0]
        responses = op.spec["responses"]
        key = str(status) if str(status) in responses else "default"
        if key not in responses and status in GENERAL_STATUSES:
            return []
        if key not in responses:
            message = f"status {status} is not one the operation declares ({sorted(responses)})"
            return [Violation(op.id, f"response {status}", "", message)]
        declared, at = self._deref(f"{op.pointer}/responses/{key}")
        if "schema" not in (declared.get("content") or {}).get("application/json", {}):
            if body is not None:
                return [Violation(op.id, f"response {status}", "", "declares no body")]
            return []
        return self._check_value(op, f"response {status}", body, f"{at}/content/{_JSON}/schema")

    # -- schemas ----------------------------------------------------------------------------
    def _check_value(
        self, op: Operation, where: str, value: Any, pointer: str, prefix: str = ""
    ) -> list[Violation]:
        validator = self._validator(pointer)
        return [
            Violation(op.id, where, field_of(prefix, error), error.message)
            for error in sorted(validator.iter_errors(value), key=lambda e: list(e.path))
        ]

    @functools.lru_cache(maxsize=1024)  # noqa: B019 - one Contract per description, never freed
    def _validator(self, pointer: str) -> jsonschema.Draft4Validator:
        """A validator for the schema at `pointer`, reached through the description's root so
        the `$ref`s inside it resolve."""
        return jsonschema.Draft4Validator({"$ref": f"{_BASE}#{pointer}"}, registry=self._registry)

    def _deref(self, pointer: str) -> tuple[Json, str]:
        """The object at `pointer`, following `$ref`s, and the pointer where it really is."""
        node = self._resolve(pointer)
        while "$ref" in node:
            pointer = node["$ref"].removeprefix("#")
            node = self._resolve(pointer)
        return node, pointer

    def _resolve(self, pointer: str) -> Json:
        node: Any = self.document
        for part in pointer.removeprefix("/").split("/"):
            part = unquote(part).replace("~1", "/").replace("~0", "~")
            node = node[int(part)] if isinstance(node, list) else node[part]
        return node


def _compile(method: str, template: str, spec: Json) -> tuple[Operation, re.Pattern[str]]:
    pointer = "/paths/" + quote(template.replace("~", "~0").replace("/", "~1")) + "/" + method
    regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
    op = Operation(spec.get("operationId", f"{method} {template}"), method, template, pointer, spec)
    return op, re.compile(regex)


def _coerce(raw: str, schema: Json) -> Any:
    """A path or query string as the type its schema declares (`"7"` for an integer is 7)."""
    kind = schema.get("type")
    if kind == "integer" and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if kind == "boolean" and raw in ("true", "false"):
        return raw == "true"
    return raw


def field_of(prefix: str, error: jsonschema.ValidationError) -> str:
    """The dotted path of what `error` is about; a missing property names that property."""
    parts = [prefix, *(str(p) for p in error.absolute_path)]
    if error.validator == "required":
        missing = re.match(r"'([^']+)' is a required property", error.message)
        parts.append(missing.group(1) if missing else "")
    return ".".join(p for p in parts if p)
