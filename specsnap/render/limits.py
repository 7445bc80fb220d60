"""GitHub's documented size and count limits, and truncation that always says it truncated.

Lengths are counted in UTF-16 code units, GitHub's own measure for string limits: an emoji counts
two, so a body that fits here fits there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

#: Issue and pull-request comment body ("maximum is 65536 characters").
COMMENT_MAX = 65536
#: Check run `output.summary` and `output.text` ("Maximum length: 65535 characters").
CHECK_SUMMARY_MAX = 65535
CHECK_TEXT_MAX = 65535
#: Check run annotations: at most 50 per create/update request; title 255 characters,
#: message and raw_details 64 KB each (bytes of UTF-8, not characters).
ANNOTATIONS_PER_REQUEST = 50
ANNOTATION_TITLE_MAX = 255
ANNOTATION_MESSAGE_MAX = 64 * 1024
#: How many annotations SpecSnap sends at most for one check run (a run that breaks more
#: boundaries than this is summarised, not listed); the summary says how many were left out.
ANNOTATIONS_MAX = 500
#: A step's job summary (`$GITHUB_STEP_SUMMARY`) is limited to 1 MiB.
STEP_SUMMARY_MAX_BYTES = 1024 * 1024
#: Workflow-command annotations shown per step and level (`::error`, `::warning`).
WORKFLOW_ANNOTATIONS_PER_LEVEL = 10

T = TypeVar("T")


def github_length(text: str) -> int:
    """Length as GitHub counts it: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def utf8_length(text: str) -> int:
    """Length in bytes of UTF-8, GitHub's measure for annotation messages."""
    return len(text.encode())


def truncate(
    text: str, limit: int, note: str, measure: Callable[[str], int] = github_length
) -> str:
    """`text` if it fits in `limit`, else its longest whole-line prefix followed by `note`;
    lengths by `measure` (UTF-16 units unless told otherwise).

    The note is always visible in the result, so a reader knows something was left out.
    """
    if measure(text) <= limit:
        return text
    suffix = "\n\n" + note
    budget = limit - measure(suffix)
    if budget <= 0:
        return _cut(note, limit, measure)
    kept: list[str] = []
    used = 0
    for line in text.splitlines(keepends=True):
        size = measure(line)
        if used + size > budget:
            break
        kept.append(line)
        used += size
    if not kept:  # one enormous first line: cut inside it
        return _cut(text, budget, measure) + suffix
    return "".join(kept).rstrip("\n") + suffix


def fit_blocks(head: str, blocks: Sequence[str], tail: str, limit: int, note: str) -> str:
    """`head`, as many whole `blocks` as fit in `limit`, a note if any were left out, `tail`.

    Blocks are kept whole, so a `<details>` block never loses its closing tag; `note` may contain
    `{omitted}`, replaced by how many blocks were left out. Parts are joined by blank lines.
    """
    separator = "\n\n"
    fixed = [head, tail, note.format(omitted=len(blocks))]
    used = sum(github_length(p) + len(separator) for p in fixed)
    kept: list[str] = []
    for block in blocks:
        size = github_length(block) + len(separator)
        if used + size > limit:
            break
        kept.append(block)
        used += size
    omitted = len(blocks) - len(kept)
    parts = [head, *kept, note.format(omitted=omitted) if omitted else "", tail]
    return separator.join(p for p in parts if p)


def batches(items: Sequence[T], size: int) -> list[tuple[T, ...]]:
    """`items` in consecutive groups of at most `size` (none for an empty sequence)."""
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def _cut(text: str, limit: int, measure: Callable[[str], int]) -> str:
    out: list[str] = []
    used = 0
    for char in text:
        size = measure(char)
        if used + size > limit:
            break
        out.append(char)
        used += size
    return "".join(out)
