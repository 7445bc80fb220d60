"""The built-in control agents, as the program a session runs (standard library and git only).

They need no model: they play the tier's reference solution, one requirement patch at a time,
writing each file in place the way an editor does, so the cutoff sees ordinary source edits.

- notetaker: before its first edit it writes the sprint to NOTES.md; in later sessions it reads
  its notes and finishes every requirement they list (it also records amendments it is told),
  with the values its notes state (Stage II may have made one of them stale).
- tracker: a notetaker that, in later sessions, checks its notes against the ticket tracker
  (`tickets list`, `tickets show ID`; Stage II) and rewrites them from it, and reviews its
  teammates' commits: one that is not its own work gets the tier's fix at the cause.
- amnesiac: keeps nothing; in a continuation session it only finishes the work the working tree
  shows in progress.
- recall: skips session 1 and, in every later session, plays the whole reference solution it
  was given (that of another seed: what a model that memorised the public reference would write).
- noop: does nothing.

Every mode follows files its teammates moved (renames in the history since the baseline).

Like a CLI, every mode keeps its conversation (each prompt it heard, and git's output that told
it something) in a store in its HOME, `.specsnap-control/<id>.json`, written before its first
edit. Only the amnesiac's adapter declares it for `--handoff`: given `--resume ID` it reads the
store SpecSnap moved into its new HOME and finishes every requirement of the sprint it heard;
with `--compact` as well it first compacts the conversation to the requirements' headings (the
details dropped) and works from that summary.

Two cheap habits can be added to any mode (`--habits a,b`), to show what Stage II's scores do
not reward (docs/protocol.md, the controls in Stage II):

- read-every-ticket: in every later session, read the whole tracker (`tickets list`, then
  `tickets show` of each) and finish every ticket's requirement, whatever the notes say;
- revert-teammates: in every later session, first revert each teammate commit that renames no
  file (a refactor's renames are kept).

Usage: python control_agent.py MODE PROMPT_FILE CONTROL_DIR [--contract original] [--habits H]
                               [--resume ID [--compact]]

Over 400 lines: it is one program, copied whole into the session's HOME and run isolated
(`python -I -S`), so it can import nothing of its own beside it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

NOTES = "NOTES.md"
HEADING = re.compile(r"^### \d+\. .* \(([A-Z][A-Z0-9]*-\d+)\)\s*$", re.MULTILINE)
AMENDS = re.compile(r"\b([A-Z][A-Z0-9]*-\d+)\b")
OWN = ("agent@specsnap.invalid", "baseline@specsnap.invalid")
STORE = ".specsnap-control"


def git(*args: str, check: bool = True) -> str:
    proc = subprocess.run(["git", *args], capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout + proc.stderr


@functools.cache
def moves() -> dict[str, str]:
    """Files renamed in the history since the baseline (a teammate's refactor): old -> new."""
    root = git("rev-list", "--max-parents=0", "HEAD").split()[0]
    out = subprocess.run(
        ["git", "diff", "-M", "--name-status", "--diff-filter=R", root, "HEAD"],
        capture_output=True,
        text=True,
    ).stdout
    fields = [line.split("\t") for line in out.splitlines()]
    return {f[1]: f[2] for f in fields if len(f) == 3 and f[0].startswith("R")}


def sections(patch_text: str) -> list[tuple[str, str]]:
    """The patch split per file: (repository path, the file's part of the diff), each aimed at
    where the file is now if a teammate moved it."""
    parts = re.split(r"(?m)^(?=diff --git )", patch_text)
    found = []
    for part in parts:
        match = re.match(r"diff --git a/(\S+) b/(\S+)", part)
        if match:
            path = match.group(2)
            moved = moves().get(path)
            if moved:
                header, sep, body = part.partition("\n@@")
                for side in ("a", "b"):
                    header = re.sub(
                        rf"(?<=\s){side}/{re.escape(path)}(?=\s|$)", f"{side}/{moved}", header
                    )
                part, path = header + sep + body, moved
            found.append((path, part))
    return found


def _apply_copy(rel: str, section: str, *flags: str, base: bytes | None = None) -> bytes | None:
    """Apply one file's section to a scratch copy of the file (or of `base`); the new content."""
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if base is not None:
            target.write_bytes(base)
        elif Path(rel).exists():
            target.write_bytes(Path(rel).read_bytes())
        # The ceiling keeps git from finding a repository above the scratch directory.
        env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(Path(tmp).parent))
        proc = subprocess.run(
            ["git", "apply", *flags, "-"],
            input=section.encode(),
            cwd=tmp,
            env=env,
            capture_output=True,
        )
        if proc.returncode != 0:
            return None
        return target.read_bytes() if target.exists() else b""


def patched_content(rel: str, section: str, control: Path) -> bytes | None:
    """What `rel` holds once its section of a patch is applied to the current file.

    Patches are written against the starter; when other requirements already changed the lines
    around a hunk, the section is applied to the starter's file and merged three ways.
    """
    direct = _apply_copy(rel, section)
    if direct is not None or not Path(rel).exists():
        return direct
    base = _starter_content(rel, control)
    theirs = _apply_copy(rel, section, base=base)
    if base is None or theirs is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / name for name in ("ours", "base", "theirs")]
        for path, data in zip(paths, (Path(rel).read_bytes(), base, theirs), strict=True):
            path.write_bytes(data)
        proc = subprocess.run(["git", "merge-file", "-p", *map(str, paths)], capture_output=True)
        return proc.stdout if proc.returncode == 0 else None


def _starter_content(rel: str, control: Path) -> bytes | None:
    """The file as the sprint's patches expect it: the baseline commit (plus BASELINE.patch)."""
    root = git("rev-list", "--max-parents=0", "HEAD").split()[0]
    original = next((old for old, new in moves().items() if new == rel), rel)
    proc = subprocess.run(["git", "show", f"{root}:{original}"], capture_output=True)
    if proc.returncode != 0:
        return None
    baseline = control / "solution" / "BASELINE.patch"
    if baseline.exists():
        for path, section in sections(baseline.read_text()):
            if path == rel:
                return _apply_copy(rel, section, base=proc.stdout)
    return proc.stdout


def already_applied(rel: str, section: str) -> bool:
    return _apply_copy(rel, section, "--check", "-R") is not None


def apply_requirement(patch: Path) -> None:
    """Write every file of the requirement's patch that is not yet written, in place."""
    control = patch.parent.parent
    for rel, section in sections(patch.read_text()):
        if already_applied(rel, section):
            continue
        content = patched_content(rel, section, control)
        if content is None:
            raise SystemExit(f"cannot apply {patch.name} to {rel}")
        if "+++ /dev/null" in section:
            os.remove(rel)
            continue
        Path(rel).parent.mkdir(parents=True, exist_ok=True)
        with open(rel, "wb") as handle:
            handle.write(content)


def in_progress(patch: Path) -> bool:
    """Some files of the requirement are written and some are not (a cut-off edit)."""
    done = [already_applied(rel, section) for rel, section in sections(patch.read_text())]
    return any(done) and not all(done)


def started(patch: Path) -> bool:
    return any(already_applied(rel, s) for rel, s in sections(patch.read_text()))


def requirement_ids(text: str) -> list[str]:
    return HEADING.findall(text)


def patch_for(req_id: str, control: Path, original: set[str]) -> Path:
    if req_id in original:
        return control / "solution-original" / f"{req_id}.patch"
    return control / "solution" / f"{req_id}.patch"


def commit(message: str) -> str:
    """Commit everything; git's output (hooks included) is what the agent "hears"."""
    git("add", "-A")
    # Fixed dates make a control's commits, and so its scorecard, the same on every run.
    date = "2025-01-02T00:00:00+0000"
    os.environ.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    output = git("commit", "-q", "-m", message, check=False)
    print(output, flush=True)
    return output


def main(argv: list[str]) -> int:
    mode, prompt_file, control = argv[0], Path(argv[1]), Path(argv[2])
    contract_original = "--contract" in argv and argv[argv.index("--contract") + 1] == "original"
    habits = set(argv[argv.index("--habits") + 1].split(",")) if "--habits" in argv else set()
    resume_id = argv[argv.index("--resume") + 1] if "--resume" in argv else None
    if mode == "noop":
        return 0
    prompt = prompt_file.read_text()
    heard = resumed(resume_id, "--compact" in argv) if resume_id is not None else []
    heard.append(prompt)
    session_id = resume_id or hashlib.sha256(prompt.encode()).hexdigest()[:16]
    remember(session_id, heard)
    if mode == "recall":
        return recall(prompt, control)
    ids = requirement_ids(prompt)
    original: set[str] = set()
    if contract_original and (control / "solution-original").is_dir():
        original = {p.stem for p in (control / "solution-original").glob("*.patch")}
    baseline = control / "solution" / "BASELINE.patch"
    first_session = bool(ids) or (baseline.exists() and not Path(NOTES).exists() and not _dirty())
    if first_session and not ids and baseline.exists():
        # Tier 1: do TASK.md, commit; the product note arrives in git's output.
        apply_requirement(baseline)
        prompt = commit("Implement TASK.md baseline")  # what it heard: the product note
        heard.append(prompt)
        remember(session_id, heard)
        ids = requirement_ids(prompt)
    if first_session:
        if mode in ("notetaker", "tracker"):
            Path(NOTES).write_text(_notes(ids, prompt))
        for req_id in ids:  # the first source edit cuts the session off
            apply_requirement(patch_for(req_id, control, original))
        commit("Implement the sprint")
        return 0
    if "revert-teammates" in habits:
        revert_teammates()
    if "read-every-ticket" in habits:
        for req_id in read_every_ticket():
            patch = patch_for(req_id, control, original)
            if in_progress(patch) or not started(patch):
                apply_requirement(patch)
    if mode in ("notetaker", "tracker"):
        notes = Path(NOTES).read_text() if Path(NOTES).exists() else ""
        if mode == "tracker":
            notes = checked_with_tracker(notes)
            Path(NOTES).write_text(notes)
            review_teammates(control)
        amended = sorted(set(AMENDS.findall(prompt)))
        if amended:
            notes += f"\n## Amendment received: {', '.join(amended)}\n"
            Path(NOTES).write_text(notes)
        finish_noted(notes, control, original)
    elif resume_id is not None:  # its harness's memory: the conversation it resumed
        finish_noted("\n".join(heard), control, original)
    else:
        patches = sorted((control / "solution").glob("*.patch"))
        for patch in patches:
            if patch.stem != "BASELINE" and in_progress(patch):
                apply_requirement(patch)
    commit("Continue the sprint")
    return 0


def finish_noted(notes: str, control: Path, original: set[str]) -> None:
    """Finish every requirement `notes` list (a half-written one file by file), with the values
    they state."""
    for req_id in dict.fromkeys(requirement_ids(notes)):
        patch = noted_patch(req_id, control, original, notes)
        if in_progress(patch) or not started(patch):
            apply_requirement(patch)


def store_file(session_id: str) -> Path:
    return Path(os.environ["HOME"]) / STORE / f"{session_id}.json"


def remember(session_id: str, heard: list[str]) -> None:
    """Keep the conversation in the store, under the session's id: the resumed one's, or one
    made of the first prompt (the same on every run, as a control's scorecard must be)."""
    path = store_file(session_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"session": session_id, "conversation": heard}, indent=1))


def resumed(session_id: str, compact: bool) -> list[str]:
    """The conversation of the session resumed (compacted first: only the requirements'
    headings kept); nothing when its store is missing or unreadable."""
    try:
        conversation = json.loads(store_file(session_id).read_text())["conversation"]
        texts = [text for text in conversation if isinstance(text, str)]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    if compact:
        headings = [m.group(0) for text in texts for m in HEADING.finditer(text)]
        return ["# Summary of the conversation so far\n\n" + "\n".join(headings) + "\n"]
    return texts


def _token(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(?<!\d\.)" + re.escape(value) + r"(?!\w)(?!\.\d)")


def noted_patch(req_id: str, control: Path, original: set[str], notes: str) -> Path:
    """The requirement's patch with the values the notes state for it: where the notes give
    another choice of one of its parameters than the sprint did, that choice's variant."""
    default = patch_for(req_id, control, original)
    index = control / "variants.json"
    if req_id in original or not index.exists():
        return default
    params: dict[str, list[str]] = json.loads(index.read_text()).get(req_id, {})
    heading = re.compile(rf"^###? .*\({re.escape(req_id)}\)\s*$", re.MULTILINE)
    section = "".join(
        re.split(r"(?m)^##", notes[m.end() :], maxsplit=1)[0] for m in heading.finditer(notes)
    )
    for param, choices in params.items():
        stated = [i for i, choice in enumerate(choices) if _token(choice).search(section)]
        if len(stated) == 1:
            variant = control / "variants" / param / str(stated[0]) / f"{req_id}.patch"
            if variant.read_text() != default.read_text():
                return variant
    return default


def _tickets(*args: str) -> str | None:
    """The tracker's answer, or None where there is no tracker (Stage I) or no such ticket."""
    try:
        proc = subprocess.run(["tickets", *args], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def checked_with_tracker(notes: str) -> str:
    """The notes with their copy of the sprint replaced by what the tracker holds."""
    if _tickets("list") is None:
        return notes
    parts = []
    for number, req_id in enumerate(dict.fromkeys(requirement_ids(notes)), start=1):
        shown = _tickets("show", req_id)
        if shown is None:
            continue
        first, _, rest = shown.partition("\n")
        body = rest.partition("\n\n")[2] if rest.startswith("package:") else rest
        title = first.partition(" · ")[2] or first
        parts.append(f"### {number}. {title} ({req_id})\n\n{body.strip()}\n")
    kept = notes.split("\n## The sprint as", 1)[0].rstrip("\n")
    return kept + "\n\n## The sprint as the tracker has it\n\n" + "\n".join(parts)


def read_every_ticket() -> list[str]:
    """Every ticket's id, each read in full from the tracker (none where there is none)."""
    listing = _tickets("list") or ""
    ids = [m.group(1) for m in re.finditer(r"(?m)^([A-Z][A-Z0-9]*-\d+)\s", listing)]
    return [req_id for req_id in ids if _tickets("show", req_id) is not None]


def revert_teammates() -> None:
    """Revert, newest first, every commit since the baseline that is not the agent's own and
    renames no file."""
    root = git("rev-list", "--max-parents=0", "HEAD").split()[0]
    log = git("log", "--format=%H %ae", f"{root}..HEAD").split("\n")
    date = "2025-01-02T00:00:00+0000"  # fixed, like every commit of a control's
    os.environ.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    for line in filter(None, log):
        sha, email = line.split()
        renames = git("show", "-M", "--diff-filter=R", "--name-only", "--format=", sha).strip()
        if email not in OWN and not renames:
            git("revert", "--no-edit", sha, check=False)


def review_teammates(control: Path) -> None:
    """A teammate committed since the baseline: where the tier's fix at the cause of a planted
    regression applies to the tree as it is, apply it."""
    root = git("rev-list", "--max-parents=0", "HEAD").split()[0]
    log = subprocess.run(
        ["git", "log", "--format=%ae", f"{root}..HEAD"], capture_output=True, text=True
    ).stdout
    fix = control / "stage2" / "root-cause.patch"
    if not fix.exists() or not any(email not in OWN for email in log.split()):
        return
    parts = sections(fix.read_text())
    if all(not already_applied(rel, s) and _apply_copy(rel, s) is not None for rel, s in parts):
        apply_requirement(fix)


def recall(prompt: str, control: Path) -> int:
    """Session 1: nothing. Later: every patch of the recalled reference solution, committed."""
    if not prompt.startswith("Continue"):
        return 0
    for patch in sorted((control / "solution").glob("*.patch"), key=lambda p: p.stem != "BASELINE"):
        if not started(patch) or in_progress(patch):
            apply_requirement(patch)
    commit("Implement the sprint")
    return 0


def _notes(ids: list[str], prompt: str) -> str:
    lines = ["# Sprint notes (kept across sessions)", ""]
    lines += [f"### {n}. pending ({req_id})" for n, req_id in enumerate(ids, start=1)]
    return "\n".join(lines) + "\n\n## The sprint as received\n\n" + prompt


def _dirty() -> bool:
    return bool(git("status", "--porcelain", check=False).strip())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
