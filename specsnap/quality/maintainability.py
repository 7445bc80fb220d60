"""Maintainability of the cumulative diff from the baseline to the graded commit: duplicated
blocks it adds, files it touches outside the packages the sprint names, its size against the
reference solution's, the cyclomatic complexity it adds, and the dead code it adds.

Everything here reads the two commits' files as text (specsnap.quality.source) and parses them
with libraries that never import or run what they read: pylint's similarity checker (lines;
Python's `ast` finds the imports and signatures it ignores), lizard (its own tokenizer) and vulture
(Python's `ast`). A file one of them cannot parse is left out of that signal and counted.
"""

from __future__ import annotations

import ast
import contextlib
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from specsnap.quality.source import Snapshot, added_lines, changed_files, is_test_support

#: Findings listed (dead code, out-of-scope files); beyond them they are only counted.
LISTED = 20
#: Source files compared for duplication (every pair is compared); more: not measured.
MAX_DUPLICATION_FILES = 400
#: Vulture's confidence from which a finding is dead code whatever its name (unused imports,
#: variables and arguments, unreachable code). Below it (unused functions, classes, methods,
#: attributes: 60 %) only private names count: a new public name may be the API the sprint
#: asks for, which only the hidden tests call.
SURE = 90


@dataclass(frozen=True)
class Signals:
    """The diff's maintainability signals (each None when it could not be measured)."""

    lines_added: int  # in Python source (tests and notes aside): what the reference adds too
    reference_lines_added: int | None  # the tier's reference solution, for the same sprint
    files_changed: int
    out_of_scope: list[str]  # Python source changed outside the sprint's packages
    duplicated_blocks: int | None
    duplicated_lines: int | None
    complexity_added: int | None  # cyclomatic complexity, changed files, graded minus baseline
    most_complex: str | None  # "file::function (N)", among functions the diff adds or changes
    dead_code: list[str]  # "file:line message", the first LISTED
    dead_code_total: int
    unparsed: list[str]  # files a parser refused

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def maintainability(
    base: Snapshot,
    head: Snapshot,
    packages: Iterable[str],
    python_path: Sequence[str],
    reference_patches: Iterable[str],
) -> Signals:
    """The signals of the diff from `base` to `head`; `packages` are the packages the sprint's
    requirements name, `python_path` where they live, `reference_patches` the rendered reference
    solution (unified diffs)."""
    changed = changed_files(base, head)
    added = {path: added_lines(_text(base, path), head.text(path)) for path in changed}
    sources = [p for p in changed if p.endswith(".py") and not is_test_support(p)]
    unparsed: list[str] = []
    duplicated = duplication(head, added, unparsed)
    complexity, most = complexity_added(base, head, sources, added, unparsed)
    dead = dead_code(head, added, unparsed)
    return Signals(
        lines_added=sum(len(added[path]) for path in sources),
        reference_lines_added=sum(patch_lines_added(p) for p in reference_patches),
        files_changed=len(changed),
        out_of_scope=out_of_scope(sources, packages, python_path),
        duplicated_blocks=None if duplicated is None else len(duplicated),
        duplicated_lines=None if duplicated is None else sum(duplicated),
        complexity_added=complexity,
        most_complex=most,
        dead_code=dead[:LISTED],
        dead_code_total=len(dead),
        unparsed=sorted(set(unparsed)),
    )


def patch_lines_added(patch: str) -> int:
    """Lines a unified diff adds to Python source (tests aside), as `lines_added` counts them."""
    count, counted = 0, False
    for line in patch.splitlines():
        if line.startswith("+++ "):
            path = line[4:].strip().removeprefix("b/")
            counted = path.endswith(".py") and not is_test_support(path)
        elif counted and line.startswith("+"):
            count += 1
    return count


def out_of_scope(
    sources: Iterable[str], packages: Iterable[str], python_path: Sequence[str]
) -> list[str]:
    """Python source files (tests aside) outside every package the sprint names."""
    roots = {
        f"{base.strip('./') + '/' if base.strip('./') else ''}{package.replace('.', '/')}/"
        for package in packages
        for base in python_path
    }
    return [path for path in sources if not any(path.startswith(root) for root in roots)]


def duplication(
    head: Snapshot, added: Mapping[str, list[int]], unparsed: list[str]
) -> list[int] | None:
    """The sizes (in lines) of duplicated blocks in the graded source with at least one copy
    on lines the diff adds (pylint's similarity checker, its default minimum block size,
    comments, docstrings, imports and signatures ignored). None: too many files to compare."""
    from pylint.checkers.symilar import DEFAULT_MIN_SIMILARITY_LINE, Symilar  # at grading only

    files = sorted(p for p in head.files if p.endswith(".py") and not is_test_support(p))
    if len(files) > MAX_DUPLICATION_FILES:
        return None
    finder = Symilar(
        min_lines=DEFAULT_MIN_SIMILARITY_LINE, ignore_comments=True, ignore_docstrings=True
    )
    for path in files:
        try:
            finder.append_stream(
                path, io.StringIO(_without_imports_and_signatures(head.text(path)))
            )
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            unparsed.append(path)  # no block of it is compared
    new = {path: set(lines) for path, lines in added.items()}
    sizes = []
    # _iter_sims is how pylint's own checker lists the blocks (Symilar.run only prints them).
    for common in finder._iter_sims():
        copies = (
            (common.fst_lset.name, common.fst_file_start, common.fst_file_end),
            (common.snd_lset.name, common.snd_file_start, common.snd_file_end),
        )
        # Line numbers here are 0-based, end excluded.
        if any(
            new.get(name, set()) & set(range(start + 1, end + 1)) for name, start, end in copies
        ):
            sizes.append(common.cmn_lines_nb)
    return sizes


def _without_imports_and_signatures(text: str) -> str:
    """`text` with its import statements and function signatures blanked (line numbers kept),
    as pylint's own `ignore-imports` and `ignore-signatures` do: a shared import list or
    signature is no duplicated logic. Python's `ast` finds them (astroid, which pylint would use,
    takes about ten times as long)."""
    lines = text.splitlines()
    blank: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import | ast.ImportFrom):
            blank.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0].lineno
            blank.update(range(node.lineno, first if first > node.lineno else first + 1))
    return "".join(
        ("" if number in blank else line) + "\n" for number, line in enumerate(lines, start=1)
    )


def complexity_added(
    base: Snapshot,
    head: Snapshot,
    sources: Sequence[str],
    added: Mapping[str, list[int]],
    unparsed: list[str],
) -> tuple[int | None, str | None]:
    """The cyclomatic complexity (lizard) of the changed source files at the graded commit minus
    at the baseline, and the most complex function the diff adds or changes."""
    total = 0
    most: tuple[int, str] | None = None
    for path in sources:
        functions = _functions(path, head.text(path), unparsed)
        before = _functions(path, _text(base, path), unparsed) if path in base.files else []
        total += sum(f.cyclomatic_complexity for f in functions)
        total -= sum(f.cyclomatic_complexity for f in before)
        lines = set(added.get(path, ()))
        for function in functions:
            if lines & set(range(function.start_line, function.end_line + 1)):
                ccn = function.cyclomatic_complexity
                if most is None or ccn > most[0]:
                    most = (ccn, f"{path}::{function.name} ({ccn})")
    return total, most[1] if most else None


def _functions(path: str, text: str, unparsed: list[str]) -> list[Any]:
    import lizard  # imported at grading only, never by a session's start-up

    try:
        return list(lizard.analyze_file.analyze_source_code(path, text).function_list)
    except Exception:  # lizard's tokenizer refused it
        unparsed.append(path)
        return []


def dead_code(head: Snapshot, added: Mapping[str, list[int]], unparsed: list[str]) -> list[str]:
    """Dead code (vulture) on lines the diff adds to source files: unused imports, variables,
    arguments and unreachable code, and private names nothing uses. Every Python file of the
    graded commit, tests included, counts as a use."""
    import vulture  # imported at grading only, never by a session's start-up

    finder = vulture.Vulture(verbose=False)
    for path in sorted(p for p in head.files if p.endswith(".py")):
        try:  # vulture prints what it cannot parse: that goes nowhere
            with (
                contextlib.redirect_stdout(io.StringIO()),
                contextlib.redirect_stderr(io.StringIO()),
            ):
                finder.scan(head.text(path), filename=path)
        except Exception:  # vulture reports syntax errors itself; anything else: left out
            unparsed.append(path)
    new = {path: set(lines) for path, lines in added.items() if not is_test_support(path)}
    found: list[tuple[str, int, str]] = []
    for item in finder.get_unused_code(min_confidence=0):
        path = str(item.filename)
        lines = set(range(item.first_lineno, item.last_lineno + 1))
        private = item.name.startswith("_") and not item.name.startswith("__")
        if new.get(path, set()) & lines and (item.confidence >= SURE or private):
            found.append((path, item.first_lineno, str(item.message)))
    return [f"{path}:{line} {message}" for path, line, message in sorted(found)]


def _text(snapshot: Snapshot, path: str) -> str:
    return snapshot.text(path) if path in snapshot.files else ""
