from __future__ import annotations

import io
import re
from pathlib import Path

from entrypoint.gha import GitHubActions, escape_data, escape_property


def actions(tmp_path: Path) -> tuple[GitHubActions, io.StringIO]:
    stream = io.StringIO()
    env = {
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
    }
    return GitHubActions(env, stream), stream


def test_escaping_follows_the_runner_rules() -> None:
    assert escape_data("50%\r\nnext") == "50%25%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"


def test_annotations_carry_file_line_and_title(tmp_path: Path) -> None:
    gha, stream = actions(tmp_path)
    gha.error("broke\nbadly", title="Gate: broken", file="a,b.py", line=3)
    assert stream.getvalue() == "::error title=Gate%3A broken,file=a%2Cb.py,line=3::broke%0Abadly\n"


def test_annotations_beyond_the_runner_cap_are_counted_not_printed(tmp_path: Path) -> None:
    gha, stream = actions(tmp_path)
    for i in range(14):
        gha.warning(f"w{i}")
    gha.error("e")
    gha.close_annotations()
    lines = stream.getvalue().splitlines()
    assert sum(line.startswith("::warning") for line in lines) == 10
    assert lines[-1] == "::notice::4 warning(s) more not shown as annotations; see the job summary"


def test_outputs_single_and_multi_line(tmp_path: Path) -> None:
    gha, _ = actions(tmp_path)
    gha.set_output("pass", "true")
    gha.set_output("paths", "a\nb")
    text = (tmp_path / "output").read_text()
    match = re.fullmatch(r"pass=true\npaths<<(ghadelimiter_[0-9a-f-]+)\na\nb\n\1\n", text)
    assert match is not None


def test_the_summary_is_appended_and_bounded(tmp_path: Path) -> None:
    gha, stream = actions(tmp_path)
    gha.add_summary("# one")
    gha.add_summary("# two")
    assert (tmp_path / "summary").read_text() == "# one\n\n# two\n\n"
    gha.add_summary("x" * (1024 * 1024))
    assert "::warning::the job summary is full" in stream.getvalue()
    assert (tmp_path / "summary").stat().st_size < 100


def test_outside_a_runner_outputs_are_printed(tmp_path: Path) -> None:
    stream = io.StringIO()
    gha = GitHubActions({}, stream)
    gha.set_output("pass", "false")
    gha.add_summary("hello")
    assert "output pass=false" in stream.getvalue() and "hello" in stream.getvalue()


def test_groups_and_masks(tmp_path: Path) -> None:
    gha, stream = actions(tmp_path)
    with gha.group("Session 1"):
        gha.add_mask("s3cr3t")
    assert stream.getvalue() == "::group::Session 1\n::add-mask::s3cr3t\n::endgroup::\n"
