"""The crediting rule: a requirement is tested by the agent when one of its tests passes with every
reference in place and fails without that requirement's; and which files are the agent's tests,
read from a real git history."""

from __future__ import annotations

from pathlib import Path

from specsnap.quality.agent_tests import Outcomes, agent_test_files, credit, failing
from specsnap.quality.source import snapshot
from tests.support.histories import commit, new_repo

ALL = Outcomes({"t.py::a": "passed", "t.py::b": "passed", "t.py::c": "failed", "u.py::d": "passed"})


def test_a_test_that_passes_with_all_and_fails_without_r_credits_r() -> None:
    without = {
        "R1": Outcomes({"t.py::a": "failed", "t.py::b": "passed", "u.py::d": "passed"}),
        "R2": Outcomes({"t.py::a": "passed", "t.py::b": "error", "u.py::d": "passed"}),
        "R3": Outcomes({"t.py::a": "passed", "t.py::b": "passed", "u.py::d": "passed"}),
    }
    assert credit(ALL, without) == {"R1": ("t.py::a",), "R2": ("t.py::b",), "R3": ()}


def test_a_test_failing_with_all_in_place_credits_nothing_even_when_it_fails_without() -> None:
    without = {"R1": Outcomes({"t.py::c": "failed", "t.py::a": "passed", "t.py::b": "passed"})}
    assert credit(ALL, without) == {"R1": ()}


def test_skipped_xfailed_or_missing_without_a_collection_error_is_not_a_failure() -> None:
    without = {
        "R1": Outcomes({"t.py::a": "skipped", "t.py::b": "xfailed"}),  # u.py::d never ran
    }
    assert credit(ALL, without) == {"R1": ()}


def test_a_module_that_cannot_be_collected_without_r_fails_all_its_tests() -> None:
    without = {"R1": Outcomes({"u.py::d": "passed"}, collect_errors=("t.py",))}
    assert credit(ALL, without) == {"R1": ("t.py::a", "t.py::b")}
    assert failing(Outcomes({}, ("tests",)), "tests/t.py::a")
    assert not failing(Outcomes({}, ("tests",)), "tests2/t.py::a")
    assert failing(Outcomes({}, ("",)), "anything.py::x")


def test_the_agent_s_tests_are_the_test_modules_and_test_files_it_added_or_changed(
    tmp_path: Path,
) -> None:
    repo = new_repo(tmp_path, {"pkg/a.py": "x = 1\n", "tests/test_a.py": "def test_a(): pass\n"})
    base = commit(repo, {})
    head = commit(
        repo,
        {
            "tests/test_a.py": "def test_a(): assert 1\n",  # changed
            "tests/test_new.py": "def test_b(): pass\n",
            "tests/conftest.py": "import pytest\n",
            "tests/helper.py": "X = 1\n",  # what the tests import
            "pkg/a.py": "x = 2\n",
            "pkg/testing.py": "Y = 1\n",  # product code
        },
    )
    files = agent_test_files(snapshot(repo, base), snapshot(repo, head))
    assert files == [
        "tests/conftest.py",
        "tests/helper.py",
        "tests/test_a.py",
        "tests/test_new.py",
    ]
