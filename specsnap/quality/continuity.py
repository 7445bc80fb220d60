"""Continuity: after an amendment, does the repository still state the rule it replaced?

Each amendment may declare hidden checks (tier.yaml `contradicted`, Contradiction): how the old
rule reads and where it would be stated. At grading, per amendment the graded commit is searched
for statements of the old rule in
- the declared places (their globs), whoever wrote them: the starter's text included, because the
  reference solution, the starter with the sprint done and the amendments honoured, states none
  there (`specsnap tiers validate` checks it for every draw), so a remaining statement is one
  nobody updated; and
- the lines the agent added to any other text file (.py, .md, .rst, .txt) since the baseline.
The starter's text outside the declared places never counts against the agent.

Only prose is read: the comments and docstrings of a .py file (tokenize and ast on its text,
never importing it) and the whole of other files, a paragraph at a time (a comment block, a
docstring, lines between blank lines) with its lines joined, so a phrase broken over two lines is
found and reported at the line where it starts. A sentence that also matches the check's `unless`
revises the rule ("no longer raises DailyLimitError") and is not a statement of it.

An amendment is `revised` when no statement remains, `silent contradiction` when some do (the
first STATEMENTS_MAX, by file and line, all counted), `not given` when the run ended before its
session and `not checked` when it declares no checks. A signal only: no score reads it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import accumulate
from typing import Any

from specsnap.quality.source import Snapshot, added_lines, changed_files
from specsnap.sandbox.globs import matches
from specsnap.tier.model import Amendment, Contradiction, Tier
from specsnap.tier.params import PLACEHOLDER

#: Statements listed per amendment; beyond them they are only counted.
STATEMENTS_MAX = 20
#: Longest excerpt of a statement's line kept.
EXCERPT_MAX = 160
#: Text files the agent changed that are read even outside the declared places.
PROSE_SUFFIXES = (".py", ".md", ".rst", ".txt")

SENTENCE_END = re.compile(r"[.!?](?=\s|$)")

#: A paragraph of prose: (line number, text) pairs.
Paragraph = list[tuple[int, str]]


@dataclass(frozen=True)
class Statement:
    """Where a file still states an amended rule."""

    file: str
    line: int
    says: str
    text: str


def compile_check(check: Contradiction, values: Mapping[str, Any]) -> re.Pattern[str]:
    """The check's pattern with each `${name}` replaced by the seed's value, escaped."""
    return re.compile(PLACEHOLDER.sub(lambda m: re.escape(str(values[m.group(1)])), check.pattern))


def continuity(
    tier: Tier,
    base: Snapshot,
    head: Snapshot,
    values: Mapping[str, Any],
    reached: int | None = None,
) -> dict[str, Any]:
    """{"amendments": [...]}: per amendment of `tier`, its status and the statements of the old
    rules that remain in `head`. `reached` is the last session the run started (None: all)."""
    changed = {
        path: set(added_lines(base.text(path) if path in base.files else "", head.text(path)))
        for path in changed_files(base, head)
        if path.endswith(PROSE_SUFFIXES)
    }
    prose: dict[str, list[Paragraph]] = {}
    entries = []
    for index, amendment in enumerate(tier.amendments, start=1):
        entry: dict[str, Any] = {
            "amendment": f"A{index}",
            "session": amendment.session,
            "amends": list(amendment.amends),
        }
        if reached is not None and reached < amendment.session:
            status, found = "not given", []
        else:
            found = statements(amendment, head, changed, values, prose)
            status = "revised" if amendment.contradicted else "not checked"
        entry["status"] = "silent contradiction" if found else status
        entry["statements"] = [asdict(s) for s in found[:STATEMENTS_MAX]]
        entry["statements_total"] = len(found)
        entries.append(entry)
    return {"amendments": entries}


def statements(
    amendment: Amendment,
    head: Snapshot,
    changed: Mapping[str, set[int]],
    values: Mapping[str, Any],
    prose: dict[str, list[Paragraph]] | None = None,
) -> list[Statement]:
    """Every statement of `amendment`'s old rules in `head`, by file and line: anywhere in the
    declared places, and on the lines the agent added (`changed`: path -> line numbers) of
    the other text files it changed."""
    cache = prose if prose is not None else {}
    found: set[Statement] = set()
    for check in amendment.contradicted:
        pattern = compile_check(check, values)
        unless = re.compile(check.unless) if check.unless else None
        declared = {p for p in head.files if matches(p, check.where)}
        for path in sorted(declared | set(changed)):
            if path not in head.files:
                continue
            if path not in cache:
                cache[path] = paragraphs(path, head.text(path))
            for line, text in _matches(cache[path], pattern, unless):
                if path in declared or line in changed[path]:
                    found.add(Statement(path, line, check.says, _excerpt(text)))
    return sorted(found, key=lambda s: (s.file, s.line, s.says))


def paragraphs(path: str, text: str) -> list[Paragraph]:
    """The prose of a file: a .py file's comment blocks and docstrings, another file's
    paragraphs."""
    if path.endswith(".py"):
        return python_prose(text)
    return _blocks(enumerate(text.splitlines(), start=1))


def python_prose(source: str) -> list[Paragraph]:
    """Comment blocks (consecutive comment lines) and docstrings, read from the text. A file
    that does not parse keeps only the lines that start with `#`."""
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
        comments = [
            (token.start[0], token.string.lstrip("#").strip())
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT
        ]
    except (SyntaxError, ValueError, tokenize.TokenError):
        return _comment_blocks(
            (n, line.strip().lstrip("#").strip())
            for n, line in enumerate(lines, start=1)
            if line.strip().startswith("#")
        )
    found = _comment_blocks(comments)
    for node in ast.walk(tree):
        if (
            not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            or not node.body
        ):
            continue
        first = node.body[0]
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            end = first.end_lineno or first.lineno
            found += _blocks((n, lines[n - 1]) for n in range(first.lineno, end + 1))
    return found


def _comment_blocks(comments: Iterable[tuple[int, str]]) -> list[Paragraph]:
    """Comments on consecutive lines, one paragraph each run."""
    blocks: list[Paragraph] = []
    for number, text in comments:
        if blocks and blocks[-1][-1][0] == number - 1:
            blocks[-1].append((number, text))
        else:
            blocks.append([(number, text)])
    return blocks


def _blocks(lines: Iterable[tuple[int, str]]) -> list[Paragraph]:
    """Runs of non-blank lines."""
    blocks: list[Paragraph] = [[]]
    for number, text in lines:
        if text.strip():
            blocks[-1].append((number, text.strip()))
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


def _matches(
    found: Sequence[Paragraph], pattern: re.Pattern[str], unless: re.Pattern[str] | None
) -> Iterable[tuple[int, str]]:
    """(line, that line's text) where `pattern` matches a paragraph, its lines joined by a
    space, outside a sentence that `unless` matches. Linear in the paragraph's length but for
    a logarithm per match: the agent may write long files."""
    for paragraph in found:
        starts = list(accumulate((len(text) + 1 for _, text in paragraph[:-1]), initial=0))
        joined = " ".join(text for _, text in paragraph)
        ends = [m.end() for m in SENTENCE_END.finditer(joined)]  # each sentence's end
        for match in pattern.finditer(joined):
            if unless is not None:
                first = bisect_right(ends, match.start())  # sentences ending before it
                last = bisect_left(ends, match.end() + 1)  # the sentence it ends in
                begin = ends[first - 1] if first else 0
                end = ends[last] if last < len(ends) else len(joined)
                if unless.search(joined, begin, end):
                    continue
            yield paragraph[bisect_right(starts, match.start()) - 1]


def _excerpt(text: str) -> str:
    return text if len(text) <= EXCERPT_MAX else text[: EXCERPT_MAX - 1] + "…"
