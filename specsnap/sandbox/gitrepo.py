"""Git, run defensively: the repository belongs to the agent under test.

Git reads a repository's own config and attributes wherever it runs in it, and either can run a
program (merge and diff drivers, filters, textconv, `include.path`, pager, editor,
`gpg.program`, ...) or change content. So SpecSnap never runs git in an agent's repository:
`git()` runs it in a repository SpecSnap makes for the call (`borrowed`), bare, with SpecSnap's
config and no attributes, that reads the agent's objects through an alternate and a copy of its
refs and HEAD that SpecSnap parsed itself. What git writes lands there; SpecSnap copies back
what it keeps (`keep_objects`, `set_ref`, `put_index`) through specsnap.sandbox.safefiles.
Every object SpecSnap reads is checked against its id, and a `.git` that is not a plain
directory is never followed. `own_git()` is for repositories SpecSnap made and no agent has
written to.

Over 400 lines: the borrowed repository and every read through it form one defence.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import subprocess
import tempfile
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from specsnap.errors import InfrastructureError
from specsnap.sandbox.safefiles import write_under

# Neutral on purpose: nothing in the sandbox tells the agent it is being benchmarked.
BASELINE_IDENTITY = {
    "GIT_AUTHOR_NAME": "Maintainers",
    "GIT_AUTHOR_EMAIL": "maintainers@example.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "Maintainers",
    "GIT_COMMITTER_EMAIL": "maintainers@example.invalid",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00+0000",
}

# Settings that stop a hostile repository config from running programs or rewriting content.
_SAFE_CONFIG = (
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "safe.directory=*",
    "-c",
    "core.sshCommand=false",
    "-c",
    "protocol.allow=never",
)

#: Repository files (relative to .git) that change what history means without changing a ref.
HISTORY_FILES = ("info/grafts", "shallow", "objects/info/alternates", "commondir")

#: The whole config of a borrowed repository. The agent's commit-graph and multi-pack index
#: would describe its objects; git reads the objects themselves instead.
BORROWED_CONFIG = """[core]
\trepositoryformatversion = 0
\tbare = true
\tcommitGraph = false
\tmultiPackIndex = false
\tlogAllRefUpdates = false
[gc]
\tauto = 0
"""

_OBJECT_ID = re.compile(r"[0-9a-f]{40}")
_REF_NAME = re.compile(r"refs/[A-Za-z0-9._/+-]+")


class GitError(InfrastructureError):
    """A git command SpecSnap relies on failed."""


class TamperedRepositoryError(GitError):
    """The repository holds an object whose content does not match its id, or a tree entry git
    itself would refuse: what SpecSnap would read is not what the commit id names."""


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment for git: no global or system config, no prompts, and history as the
    objects record it (no replace refs, no grafts)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": "/nonexistent",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_TERMINAL_PROMPT": "0",
        # Replace refs and grafts would let a repository show other content under HEAD's id.
        "GIT_NO_REPLACE_OBJECTS": "1",
        "GIT_GRAFT_FILE": "/dev/null",
        "LC_ALL": "C",
    }
    env.update(extra or {})
    return env


def plain_git_dir(repo: Path) -> bool:
    """Whether `repo/.git` is a real directory (not a symlink, nor a `gitdir:` file pointing
    somewhere else, which would let the agent swap in a repository outside its sandbox)."""
    try:
        return stat.S_ISDIR(os.lstat(repo / ".git").st_mode)
    except OSError:
        return False


def git(
    repo: Path,
    *args: str,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    check: bool = True,
    borrowed_as: Path | None = None,
) -> bytes:
    """Run `git args` on the agent's repository `repo`, in a borrowed repository (`borrowed`;
    one made for this call unless `borrowed_as` names one); stdout as bytes."""
    if borrowed_as is None:
        with borrowed(repo) as made:
            return _run(made, made, args, input, env, check)
    return _run(borrowed_as, borrowed_as, args, input, env, check)


def own_git(
    repo: Path,
    *args: str,
    input: bytes | None = None,
    env: dict[str, str] | None = None,
    check: bool = True,
) -> bytes:
    """Run `git args` in `repo`, a repository SpecSnap made and no agent has written to (a
    reference build, a verification sandbox, a sandbox before its first session)."""
    repo = repo.absolute()  # git runs in `repo`: a relative GIT_DIR would point inside it
    git_dir = repo / ".git"
    if os.path.lexists(git_dir) and not plain_git_dir(repo):
        raise GitError(f"{git_dir} is not a directory; SpecSnap does not follow it")
    return _run(git_dir, repo, args, input, {"GIT_WORK_TREE": str(repo), **(env or {})}, check)


def _run(
    git_dir: Path,
    cwd: Path,
    args: tuple[str, ...],
    input: bytes | None,
    env: dict[str, str] | None,
    check: bool,
) -> bytes:
    proc = subprocess.run(
        ["git", *_SAFE_CONFIG, *args],
        cwd=cwd,
        input=input,
        env=git_env({"GIT_DIR": str(git_dir), **(env or {})}),
        capture_output=True,
        check=False,
    )
    if check and proc.returncode != 0:
        raise GitError(
            f"git {' '.join(args)} failed in {cwd} ({proc.returncode}): "
            f"{proc.stderr.decode(errors='replace').strip()}"
        )
    return proc.stdout


@contextlib.contextmanager
def borrowed(repo: Path, index: bool = False) -> Iterator[Path]:
    """A bare repository SpecSnap makes in a private directory for `repo`: SpecSnap's config,
    no attributes or hooks, `repo`'s objects through an alternate, `repo`'s HEAD and refs as
    SpecSnap read them (only well-formed names and ids), and with `index` a copy of its index.

    A repository that borrows objects from elsewhere (its own `objects/info/alternates`) is
    refused: git would follow that file to any object store on the machine.
    """
    repo = repo.absolute()
    git_dir = repo / ".git"
    if not plain_git_dir(repo):
        raise GitError(f"{git_dir} is not a directory; SpecSnap does not follow it")
    objects = git_dir / "objects"
    try:
        if not stat.S_ISDIR(os.lstat(objects).st_mode):
            raise GitError(f"{objects} is not a directory; SpecSnap does not follow it")
    except FileNotFoundError:
        raise GitError(f"{repo} has no object store") from None
    for name in ("alternates", "http-alternates"):
        if os.path.lexists(objects / "info" / name):
            raise TamperedRepositoryError(
                f"{repo} borrows objects from elsewhere (objects/info/{name})"
            )
    with tempfile.TemporaryDirectory(prefix="specsnap-git-") as tmp:
        made = Path(tmp)
        (made / "objects" / "info").mkdir(parents=True)
        (made / "refs").mkdir()
        (made / "objects" / "info" / "alternates").write_text(f"{objects}\n")
        (made / "config").write_text(BORROWED_CONFIG)
        refs = {n: i for n, i in read_refs(git_dir).items() if _well_formed_ref(n, i)}
        packed = "".join(f"{refs[name]} {name}\n" for name in sorted(refs))
        (made / "packed-refs").write_text(packed)
        (made / "HEAD").write_text(_head(git_dir) + "\n")
        if index and (data := _read(git_dir / "index")) and not data.startswith(b"symlink:"):
            (made / "index").write_bytes(data)
        yield made


def _well_formed_ref(name: str, object_id: str) -> bool:
    return (
        bool(_REF_NAME.fullmatch(name))
        and ".." not in name
        and bool(_OBJECT_ID.fullmatch(object_id))
    )


def _head(git_dir: Path) -> str:
    """HEAD as the agent's repository has it, if well formed; otherwise a branch no one has."""
    head = (_read(git_dir / "HEAD") or b"").decode(errors="replace").strip()
    if _OBJECT_ID.fullmatch(head):
        return head
    if head.startswith("ref: ") and _REF_NAME.fullmatch(head[5:]) and ".." not in head:
        return head
    return "ref: refs/heads/unreadable-head"


def keep_objects(made: Path, repo: Path) -> None:
    """Copy the loose objects git wrote in the borrowed repository `made` into `repo`'s store
    (never through a link the agent planted); one that is already there is left alone."""
    store = made / "objects"
    for path in sorted(store.glob("[0-9a-f][0-9a-f]/*")):
        rel = f".git/objects/{path.parent.name}/{path.name}"
        if os.path.lexists(repo / rel) and not os.path.islink(repo / rel):
            continue
        zlib.decompress(path.read_bytes())  # git wrote it here: it must at least inflate
        if not write_under(repo, rel, path.read_bytes(), 0o444):
            raise GitError(f"cannot write {rel} in {repo}")


def set_ref(repo: Path, made: Path, new: str) -> None:
    """Point `repo`'s HEAD (the branch it names, or HEAD itself when detached, as the borrowed
    repository `made` read it) at `new`."""
    head = (made / "HEAD").read_text().strip()
    rel = f".git/{head[5:]}" if head.startswith("ref: ") else ".git/HEAD"
    if not write_under(repo, rel, f"{new}\n".encode(), 0o644):
        raise GitError(f"cannot write {rel} in {repo}")


def put_index(repo: Path, made: Path) -> None:
    """Copy the borrowed repository's index over `repo`'s (never through a link)."""
    if not write_under(repo, ".git/index", (made / "index").read_bytes(), 0o644):
        raise GitError(f"cannot write the index of {repo}")


def rev_parse(repo: Path, rev: str = "HEAD") -> str | None:
    """The commit id `rev` names, or None when the repository has no such commit."""
    if not plain_git_dir(repo):
        return None
    try:
        out = git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
    except GitError:  # no object store, or one borrowed from elsewhere: nothing to read
        return None
    return out.decode().strip() or None


def commits_between(repo: Path, old: str, new: str) -> list[str]:
    """Commit ids reachable from `new` but not from `old`, oldest first."""
    try:
        out = git(repo, "rev-list", "--reverse", f"{old}..{new}", check=False)
    except GitError:
        return []
    return out.decode().split()


def create_baseline(repo: Path, message: str) -> str:
    """Make `repo` a fresh repository with one deterministic commit of its whole tree."""
    own_git(repo, "init", "-q", "-b", "main")
    own_git(repo, "config", "core.logAllRefUpdates", "false")
    own_git(repo, "add", "-A")
    own_git(repo, "commit", "-q", "--no-verify", "-m", message, env=BASELINE_IDENTITY)
    for name in ("description", "COMMIT_EDITMSG", "ORIG_HEAD"):
        (repo / ".git" / name).unlink(missing_ok=True)
    for sample in (repo / ".git" / "hooks").glob("*.sample"):
        sample.unlink()
    commit = rev_parse(repo)
    if commit is None:
        raise GitError(f"baseline commit missing in {repo}")
    return commit


# -- objects, read and checked -------------------------------------------------------------


def read_objects(repo: Path, ids: list[str]) -> dict[str, tuple[str, bytes]]:
    """{id: (type, content)} for every id, each checked against its id (git does not check
    objects when it reads them, so a rewritten object file would otherwise go unnoticed)."""
    if not ids:
        return {}
    out = git(repo, "cat-file", "--batch", input=b"".join(i.encode() + b"\n" for i in ids))
    found = {}
    pos = 0
    for wanted in ids:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        if len(header) != 3:
            raise GitError(f"object {wanted} is missing from {repo}")
        kind, size = header[1].decode(), int(header[2])
        content = out[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1
        algorithm = hashlib.sha1 if len(wanted) == 40 else hashlib.sha256
        actual = algorithm(f"{kind} {size}\0".encode() + content).hexdigest()
        if actual != wanted:
            raise TamperedRepositoryError(
                f"object {wanted} in {repo} holds content whose id is {actual}"
            )
        found[wanted] = (kind, content)
    return found


@dataclass(frozen=True)
class TreeEntry:
    mode: str  # 100644, 100755, 120000 (160000 submodules are skipped)
    blob: str
    path: str


def _tree_entries(content: bytes, id_size: int) -> list[tuple[str, bytes, str]]:
    """(mode, name, id) of each entry of a raw tree object."""
    entries = []
    pos = 0
    while pos < len(content):
        space = content.index(b" ", pos)
        nul = content.index(b"\0", space)
        name = content[space + 1 : nul]
        entries.append(
            (content[pos:space].decode(), name, content[nul + 1 : nul + 1 + id_size].hex())
        )
        pos = nul + 1 + id_size
    return entries


def tree_of(repo: Path, commit: str) -> str:
    """The id of `commit`'s tree, read from a checked object."""
    commit_id = rev_parse(repo, commit)
    if commit_id is None:
        raise GitError(f"{commit} names no commit in {repo}")
    kind, content = read_objects(repo, [commit_id])[commit_id]
    if kind != "commit" or not content.startswith(b"tree "):
        raise TamperedRepositoryError(f"{commit_id} in {repo} is not a commit")
    return content[5 : content.index(b"\n")].decode()


def list_tree(repo: Path, commit: str) -> list[TreeEntry]:
    """Every file of `commit`'s tree, read from checked objects (no filters, no attributes)."""
    tree = tree_of(repo, commit)
    id_size = len(tree) // 2
    level = [("", tree)]
    entries = []
    while level:
        trees = read_objects(repo, sorted({tree for _, tree in level}))
        next_level = []
        for prefix, tree in level:
            tree_kind, raw = trees[tree]
            if tree_kind != "tree":
                raise TamperedRepositoryError(f"{tree} in {repo} is a {tree_kind}, not a tree")
            for mode, name, object_id in _tree_entries(raw, id_size):
                if b"/" in name or name.lower() in (b"", b".", b"..", b".git"):
                    raise TamperedRepositoryError(f"tree {tree} in {repo} has an entry {name!r}")
                path = prefix + os.fsdecode(name)
                if mode == "40000":
                    next_level.append((path + "/", object_id))
                elif mode in ("100644", "100755", "120000"):
                    entries.append(TreeEntry(mode, object_id, path))
        level = next_level
    return sorted(entries, key=lambda e: e.path)


def export_commit(repo: Path, commit: str, dest: Path) -> None:
    """Write `commit`'s tree into the empty directory `dest`, byte for byte, modes kept.

    Blobs are read raw and checked against their ids, so no clean/smudge filter, `export-subst`
    or `export-ignore` attribute, replace ref or rewritten object file can change what is graded.
    """
    entries = list_tree(repo, commit)
    blobs = read_objects(repo, sorted({e.blob for e in entries}))
    for entry in entries:
        kind, content = blobs[entry.blob]
        if kind != "blob":
            raise TamperedRepositoryError(f"{entry.path} in {repo} is a {kind}, not a file")
        target = dest / entry.path
        if not target.resolve().is_relative_to(dest.resolve()):
            raise GitError(f"refusing to export {entry.path!r}: it leaves the export directory")
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.mode == "120000":
            os.symlink(content, target)
        else:
            target.write_bytes(content)
            target.chmod(0o755 if entry.mode == "100755" else 0o644)


# -- the repository's state, for the reconciliation of an armed session ---------------------


@dataclass(frozen=True)
class RepoState:
    """What a session could change in `.git` besides the working tree."""

    head: str  # HEAD as written (`ref: refs/heads/main` or an id)
    refs: Mapping[str, str]  # every ref, loose or packed, refs/replace included -> its id
    history_files: Mapping[str, str | None]  # HISTORY_FILES -> sha256 of the content, or None
    commits: frozenset[str]  # every commit object in the store
    index: Mapping[str, str]  # path -> "mode id stage" of the index; {} if it is unreadable


def _read(path: Path) -> bytes | None:
    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            return b"symlink:" + os.fsencode(os.readlink(path))
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def read_refs(git_dir: Path) -> dict[str, str]:
    """Every ref from packed-refs and the loose files under refs/, read raw (git skips refs it
    finds broken; a reconciliation must not)."""
    refs = {}
    packed = _read(git_dir / "packed-refs") or b""
    for line in packed.decode(errors="replace").splitlines():
        if line and line[0] not in "#^":
            object_id, _, name = line.partition(" ")
            refs[name] = object_id
    if os.path.islink(git_dir / "refs"):
        return refs  # os.walk would follow it out of the repository
    for dirpath, _dirs, files in os.walk(git_dir / "refs"):
        for name in files:
            path = Path(dirpath) / name
            content = _read(path)
            ref = path.relative_to(git_dir).as_posix()
            refs[ref] = (content or b"").decode(errors="replace").strip()
    return refs


def repo_state(repo: Path) -> RepoState | None:
    """The state of `repo`'s refs, history files, commits and index; None without a plain .git
    that git reads as a repository."""
    if not plain_git_dir(repo):
        return None
    try:
        with borrowed(repo, index=True) as made:
            return _state(repo, made)
    except TamperedRepositoryError:  # its history files say why; git reads nothing of it
        return _state(repo, None)
    except GitError:
        return None


def _state(repo: Path, made: Path | None) -> RepoState:
    git_dir = repo / ".git"
    history = {}
    for name in HISTORY_FILES:
        content = _read(git_dir / name)
        history[name] = None if content is None else hashlib.sha256(content).hexdigest()
    listing, records = b"", b""
    if made is not None:
        listing = git(
            repo,
            "cat-file",
            "--batch-all-objects",
            "--batch-check=%(objecttype) %(objectname)",
            check=False,
            borrowed_as=made,
        )
        records = git(repo, "ls-files", "-s", "-z", check=False, borrowed_as=made)
    commits = frozenset(
        line.split()[1] for line in listing.decode().splitlines() if line.startswith("commit ")
    )
    index = {}
    for record in records.split(b"\0"):
        if record:
            meta, path = record.split(b"\t", 1)
            index[os.fsdecode(path)] = meta.decode()
    return RepoState(
        head=(_read(git_dir / "HEAD") or b"").decode(errors="replace").strip(),
        refs=read_refs(git_dir),
        history_files=history,
        commits=commits,
        index=index,
    )
