"""Reading a submission trusts nothing in it: names, kinds, sizes and counts are checked, and
nothing is ever written while reading."""

from __future__ import annotations

import io
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from specsnap.submission.archive import (
    ATTESTATION,
    LIMITS,
    MANIFEST,
    MAX_MEMBERS,
    SCORECARD,
    SubmissionError,
    manifest_of,
    manifest_problems,
    member_limit,
    read_archive,
    write_archive,
)

CARD = {
    "tier_id": "tier-1",
    "seed": 3,
    "agent": {"name": "x"},
    "receipt": {"scorecard_sha256": "a"},
}


def members() -> dict[str, bytes]:
    found = {
        SCORECARD: b"{}",
        "run.json": b"{}",
        "sandbox.bundle": b"bundle",
        "sessions/1/session.json": b"{}",
        "sessions/1/prompt.md": b"go",
    }
    found[MANIFEST] = manifest_of(found, CARD, "0.1.0")
    return found


def handmade(path: Path, add: Callable[[tarfile.TarFile], None], fmt: str = "w") -> Path:
    with tarfile.open(path, fmt) as tar:
        info = tarfile.TarInfo(MANIFEST)
        info.size = 2
        tar.addfile(info, io.BytesIO(b"{}"))
        add(tar)
    return path


def regular(name: str, data: bytes = b"x") -> Callable[[tarfile.TarFile], None]:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))

    return add


def link(name: str, target: str, kind: bytes) -> Callable[[tarfile.TarFile], None]:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.type = kind
        info.linkname = target
        tar.addfile(info)

    return add


def test_a_written_submission_reads_back_and_its_manifest_holds(tmp_path: Path) -> None:
    path = tmp_path / "s.tar"
    write_archive(path, members())
    assert read_archive(path) == members()
    assert manifest_problems(members()) == []
    write_archive(tmp_path / "again.tar", members())
    assert (tmp_path / "again.tar").read_bytes() == path.read_bytes()  # deterministic


def test_an_attestation_appended_with_tar_is_read_and_outside_the_manifest(tmp_path: Path) -> None:
    path = tmp_path / "s.tar"
    write_archive(path, members())
    (tmp_path / ATTESTATION).write_text("{}")
    subprocess.run(["tar", "-rf", str(path), "-C", str(tmp_path), ATTESTATION], check=True)
    found = read_archive(path)
    assert found[ATTESTATION] == b"{}" and manifest_problems(found) == []


def test_a_changed_or_missing_member_breaks_the_manifest() -> None:
    changed = {**members(), "sessions/1/prompt.md": b"other"}
    assert manifest_problems(changed) == [
        "sessions/1/prompt.md does not match its sha256 in the manifest"
    ]
    missing = {k: v for k, v in members().items() if k != "run.json"}
    assert manifest_problems(missing) == [
        "run.json is in the manifest but not in the bundle",
        "run.json is missing",
    ]
    assert manifest_problems({SCORECARD: b"{}"}) == [f"no {MANIFEST}: not a SpecSnap submission"]


@pytest.mark.parametrize(
    ("add", "message"),
    [
        (regular("../escape.json"), "'../escape.json' is not a submission member"),
        (regular("/etc/cron.d/x"), "'/etc/cron.d/x' is not a submission member"),
        (regular("sessions/1/../../x.json"), "is not a submission member"),
        (regular("sessions/0/session.json"), "is not a submission member"),
        (regular("sessions/17/session.json"), "is not a submission member"),
        (regular("sessions/1/stdout.log"), "is not a submission member"),
        (regular("home/.bashrc"), "is not a submission member"),
        (link(SCORECARD, "/etc/passwd", tarfile.SYMTYPE), "is not a regular file"),
        (link(SCORECARD, "run.json", tarfile.LNKTYPE), "is not a regular file"),
        (link("run.json", "", tarfile.CHRTYPE), "is not a regular file"),
        (link("run.json", "", tarfile.FIFOTYPE), "is not a regular file"),
        (regular(SCORECARD, b"x" * (LIMITS[SCORECARD] + 1)), "has 4194305 bytes; at most"),
        (regular(MANIFEST), f"{MANIFEST!r} is in it twice"),
    ],
    ids=[
        "parent",
        "absolute",
        "dotdot-inside",
        "session-0",
        "session-17",
        "log",
        "home",
        "symlink",
        "hardlink",
        "device",
        "fifo",
        "oversized",
        "duplicate",
    ],
)
def test_hostile_members_are_refused_and_nothing_is_written(
    tmp_path: Path, add: Callable[[tarfile.TarFile], None], message: str
) -> None:
    path = handmade(tmp_path / "hostile.tar", add)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(SubmissionError, match=message.replace("(", r"\(").replace("[", r"\[")):
        read_archive(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert not Path("/etc/cron.d/x").exists()


def test_compressed_or_other_files_are_not_submissions(tmp_path: Path) -> None:
    compressed = handmade(tmp_path / "s.tar.gz", regular(SCORECARD), fmt="w:gz")
    with pytest.raises(SubmissionError, match="is not an uncompressed tar file"):
        read_archive(compressed)
    (tmp_path / "plain.txt").write_text("hello")
    with pytest.raises(SubmissionError, match="is not an uncompressed tar file"):
        read_archive(tmp_path / "plain.txt")


def test_too_many_members_are_refused(tmp_path: Path) -> None:
    def many(tar: tarfile.TarFile) -> None:
        for _ in range(MAX_MEMBERS):
            info = tarfile.TarInfo("sessions/1")
            info.type = tarfile.DIRTYPE
            tar.addfile(info)

    with pytest.raises(SubmissionError, match=f"more than {MAX_MEMBERS} members"):
        read_archive(handmade(tmp_path / "many.tar", many))


def test_member_names_are_an_allow_list() -> None:
    assert member_limit("scorecard.json") == LIMITS[SCORECARD]
    assert member_limit("grading-breaches.json") == 1024 * 1024
    assert member_limit("sessions/4/cutoff.json") is not None
    assert member_limit("sessions/4/cutoff.json/") is None
    assert member_limit("./scorecard.json") is None
