from __future__ import annotations

from specsnap.render.checks import Annotation
from specsnap.render.limits import (
    ANNOTATION_MESSAGE_MAX,
    batches,
    fit_blocks,
    github_length,
    truncate,
    utf8_length,
)


def test_length_is_counted_in_utf16_units_like_github() -> None:
    assert github_length("abc") == 3
    assert github_length("✅") == 1
    assert github_length("😀") == 2  # outside the BMP: a surrogate pair


def test_text_that_fits_is_returned_unchanged() -> None:
    assert truncate("short\ntext", 100, "NOTE") == "short\ntext"


def test_truncation_keeps_whole_lines_ends_with_the_note_and_fits() -> None:
    text = "\n".join(f"line {i:04d} " + "x" * 50 for i in range(1000))
    out = truncate(text, 2000, "> truncated")
    assert github_length(out) <= 2000
    assert out.endswith("> truncated")
    body = out.removesuffix("\n\n> truncated")
    assert all(line in text.splitlines() for line in body.splitlines())


def test_one_enormous_line_is_cut_inside_and_still_noted() -> None:
    out = truncate("😀" * 5000, 300, "NOTE")
    assert github_length(out) <= 300 and out.endswith("NOTE")


def test_blocks_are_kept_whole_and_the_omitted_count_is_said() -> None:
    blocks = [f"<details>\n{'y' * 900}\n</details>" for _ in range(10)]
    out = fit_blocks("HEAD", blocks, "TAIL", 5000, "left out: {omitted}")
    assert github_length(out) <= 5000
    assert out.startswith("HEAD") and out.endswith("TAIL")
    kept = out.count("<details>")
    assert kept == out.count("</details>") and 0 < kept < 10
    assert f"left out: {10 - kept}" in out


def test_no_note_when_everything_fits() -> None:
    out = fit_blocks("H", ["a", "b"], "T", 1000, "left out: {omitted}")
    assert out == "H\n\na\n\nb\n\nT"


def test_batches_of_fifty() -> None:
    groups = batches(list(range(120)), 50)
    assert [len(g) for g in groups] == [50, 50, 20]
    assert [x for g in groups for x in g] == list(range(120))
    assert batches([], 50) == []


def test_an_annotation_message_fits_githubs_64_kb_of_bytes_not_of_characters() -> None:
    """64 KiB is a byte limit: 8,000 lines of "✅ step" (✅ is 3 bytes in UTF-8) fit it in UTF-16
    units but not in bytes."""
    message = "\n".join("✅ step" for _ in range(8_000))
    assert github_length(message) < ANNOTATION_MESSAGE_MAX < len(message.encode())
    annotation = Annotation(path="a.py", line=1, level="failure", title="t", message=message)
    sent = annotation.as_api()["message"]
    assert len(sent.encode()) <= ANNOTATION_MESSAGE_MAX
    assert sent.endswith("(truncated)")
    assert all(line == "✅ step" for line in sent.removesuffix("\n\n(truncated)").splitlines())


def test_a_byte_cut_never_splits_a_character() -> None:
    out = truncate("😀" * 100, 50, "NOTE", measure=utf8_length)
    assert len(out.encode()) <= 50 and out.endswith("NOTE")
    assert set(out.removesuffix("\n\nNOTE")) == {"😀"}
    assert truncate("fits", 50, "NOTE", measure=utf8_length) == "fits"
