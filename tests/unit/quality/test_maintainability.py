"""Each maintainability signal on a small real git history: it fires on what the diff adds and
stays silent on an honest look-alike (and on what the baseline already had)."""

from __future__ import annotations

from pathlib import Path

from specsnap.quality.maintainability import Signals, maintainability, patch_lines_added
from specsnap.quality.source import snapshot
from tests.support.histories import commit, new_repo

BODY = """
    total = 0
    for item in items:
        total += item.price * item.quantity
    total = round(total, 2)
    if total < 0:
        raise ValueError(total)
    return total
"""
BASE = {
    "pkg/__init__.py": "",
    "pkg/orders.py": f"def order_total(items):{BODY}",
    "pkg/stock.py": "LIMIT = 3\n\n\ndef level(n):\n    return n\n",
    "tests/test_orders.py": "from pkg.orders import order_total\n",
}


def signals(tmp_path: Path, change: dict[str, str | None], base: dict[str, str] = BASE) -> Signals:
    repo = new_repo(tmp_path, dict(base))
    first = commit(repo, {})
    head = commit(repo, change)
    return maintainability(snapshot(repo, first), snapshot(repo, head), ["pkg"], ["."], [])


def test_a_copied_block_is_a_duplicated_block_the_diff_adds(tmp_path: Path) -> None:
    copied = signals(tmp_path / "a", {"pkg/invoices.py": f"def invoice_total(items):{BODY}"})
    assert (copied.duplicated_blocks, copied.duplicated_lines) == (1, 7)
    own = "def invoice_total(lines):\n    return sum(line.amount for line in lines)\n"
    assert signals(tmp_path / "b", {"pkg/invoices.py": own}).duplicated_blocks == 0


def test_duplication_the_baseline_already_had_is_not_the_diff_s(tmp_path: Path) -> None:
    base = {**BASE, "pkg/old_copy.py": f"def old_total(items):{BODY}"}
    found = signals(
        tmp_path, {"pkg/stock.py": "LIMIT = 4\n\n\ndef level(n):\n    return n\n"}, base
    )
    assert found.duplicated_blocks == 0


def test_source_outside_the_sprint_s_packages_is_out_of_scope_tests_and_notes_are_not(
    tmp_path: Path,
) -> None:
    found = signals(
        tmp_path,
        {
            "other/helpers.py": "X = 1\n",
            "setup_tools.py": "Y = 2\n",
            "pkg/stock.py": "LIMIT = 4\n",
            "tests/test_new.py": "def test_x():\n    pass\n",
            "tests/helpers.py": "def make():\n    pass\n",
            "NOTES.md": "notes\n",
        },
    )
    assert found.out_of_scope == ["other/helpers.py", "setup_tools.py"]
    assert found.files_changed == 6
    honest = signals(tmp_path / "honest", {"pkg/stock.py": "LIMIT = 4\n"})
    assert honest.out_of_scope == []


def test_lines_added_count_the_diff_s_new_lines_and_the_reference_s(tmp_path: Path) -> None:
    found = signals(tmp_path, {"pkg/stock.py": "LIMIT = 5\n\n\ndef level(n):\n    return n + 1\n"})
    assert found.lines_added == 2  # two lines replaced
    patch = "--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,3 @@\n-a\n+b\n+c\n d\n"
    assert patch_lines_added(patch) == 2


def test_notes_and_tests_kept_anywhere_are_not_lines_added_on_either_side(tmp_path: Path) -> None:
    """An honest agent's notes and tests are never read as bloat beside the reference's code."""
    notes = "\n".join(f"- step {n}" for n in range(40)) + "\n"
    found = signals(
        tmp_path,
        {
            "pkg/stock.py": "LIMIT = 5\n\n\ndef level(n):\n    return n + 1\n",
            "NOTES.md": notes,
            "pkg/PLAN": notes,
            "tests/test_stock.py": "def test_level():\n    assert True\n",
        },
    )
    assert found.lines_added == 2 and found.files_changed == 4
    patch = (
        "--- a/pkg/x.py\n+++ b/pkg/x.py\n@@ -1 +1,2 @@\n a\n+b\n"
        "--- /dev/null\n+++ b/docs/x.md\n@@ -0,0 +1,2 @@\n+c\n+d\n"
        "--- /dev/null\n+++ b/tests/test_x.py\n@@ -0,0 +1 @@\n+e\n"
    )
    assert patch_lines_added(patch) == 1


def test_complexity_is_what_the_diff_adds_to_the_files_it_changes(tmp_path: Path) -> None:
    branchy = (
        "LIMIT = 3\n\n\ndef level(n):\n    return n\n\n\n"
        "def grade(n):\n    if n > 3:\n        return 'high'\n    elif n > 1:\n"
        "        return 'mid'\n    for _ in range(n):\n        pass\n    return 'low'\n"
    )
    found = signals(tmp_path / "a", {"pkg/stock.py": branchy})
    assert found.complexity_added == 4
    assert found.most_complex == "pkg/stock.py::grade (4)"
    plain = signals(
        tmp_path / "b", {"pkg/stock.py": "LIMIT = 4\n\n\ndef level(n):\n    return n\n"}
    )
    assert (plain.complexity_added, plain.most_complex) == (0, None)


def test_dead_code_the_diff_adds_is_named_public_api_and_old_dead_code_are_not(
    tmp_path: Path,
) -> None:
    base = {**BASE, "pkg/legacy.py": "import json\n\n\ndef _unused_before():\n    return 1\n"}
    added = (
        "import os\n\n\ndef _scratch(n):\n    return n\n\n\n"
        "def find_by_gtin(code):\n    return code\n    print('never')\n"
    )
    found = signals(tmp_path, {"pkg/gtin.py": added}, base)
    assert found.dead_code == [
        "pkg/gtin.py:1 unused import 'os'",
        "pkg/gtin.py:4 unused function '_scratch'",
        "pkg/gtin.py:10 unreachable code after 'return'",
    ]
    assert found.dead_code_total == 3


def test_a_file_no_parser_reads_is_left_out_and_named(tmp_path: Path) -> None:
    found = signals(
        tmp_path, {"pkg/broken.py": "def (:\n    pass\n", "pkg/stock.py": "LIMIT = 9\n"}
    )
    assert found.unparsed == ["pkg/broken.py"]
    assert found.lines_added == 3
