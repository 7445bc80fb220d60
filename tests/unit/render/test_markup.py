"""Outside text made inert: code spans, prose, GitHub plain text, the terminal."""

from __future__ import annotations

import pytest

from specsnap.render.markup import ZWSP, code, inert, plain, text
from tests.support.markdown import assert_inert, render
from tests.support.scorecards import HOSTILE_PATH, HOSTILE_TEXT


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("shipping/rates.py", "`shipping/rates.py`"),
        ("a`b", "`` a`b ``"),
        ("``x``", "``` ``x`` ```"),
        ("`", "`` ` ``"),
        ("a|b", "`a\\|b`"),
        ("two\nlines\tand  spaces", "`two lines and spaces`"),
        ("", '""'),
    ],
)
def test_code_spans_hold_whatever_they_are_given(value: str, expected: str) -> None:
    assert code(value) == expected


@pytest.mark.parametrize("value", [HOSTILE_PATH, HOSTILE_TEXT, "``` <b>x</b> ```", "a\nb|c"])
def test_a_code_span_renders_as_code_only_in_a_table_cell_too(value: str) -> None:
    assert_inert(f"see {code(value)}")
    table = f"| a | b |\n|--|--|\n| {code(value)} | {code(value)} |"
    found = render(table)
    assert found.tags.count("td") == 2 and found.tags.count("code") == 2
    assert_inert(table)


def test_code_spans_never_carry_an_html_comment_opener() -> None:
    assert "<!--" not in code("<!-- specsnap:snapshot {} -->")


@pytest.mark.parametrize("value", [HOSTILE_PATH, HOSTILE_TEXT])
def test_prose_renders_as_its_characters_without_markup(value: str) -> None:
    shown = text(value)
    assert_inert(f"- {shown}")
    assert_inert(f"| x |\n|--|\n| {shown} |")
    assert "<" not in shown and "](" not in shown.replace("\\](", "")


def test_prose_breaks_mentions_references_and_urls_invisibly() -> None:
    assert text("@octocat #12 http://x.example www.y.example") == (
        f"@{ZWSP}octocat #{ZWSP}12 http:{ZWSP}//x.example www{ZWSP}.y.example"
    )
    assert (
        text("a*b*_c_ [l](u) `t` ~s~ | \\") == "a\\*b\\*\\_c\\_ \\[l\\](u) \\`t\\` \\~s\\~ \\| \\\\"
    )
    assert text("x < y & z > w") == "x &lt; y &amp; z &gt; w"


def test_github_plain_text_is_one_line_without_mentions_links_or_comments() -> None:
    shown = inert("@someone\nsee http://x.example <!-- marker -->")
    assert shown == f"@{ZWSP}someone see http:{ZWSP}//x.example <!{ZWSP}-- marker -->"


def test_the_terminal_shows_control_characters_instead_of_obeying_them() -> None:
    assert plain("evil\x1b[2J\x07.py\nnext") == "evil\\x1b[2J\\x07.py next"
