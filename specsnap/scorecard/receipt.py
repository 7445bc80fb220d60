"""Receipts: Merkle digests of trees, canonical JSON, and the scorecard's own digest."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any


def canonical_json(value: Any) -> bytes:
    """Sorted keys, separators `,` `:`, UTF-8, no ASCII escaping."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def file_digest(content: bytes, executable: bool) -> bytes:
    mode = b"100755" if executable else b"100644"
    return hashlib.sha256(b"file\x00" + mode + b"\x00" + hashlib.sha256(content).digest()).digest()


def symlink_digest(target: bytes) -> bytes:
    return hashlib.sha256(b"file\x00120000\x00" + hashlib.sha256(target).digest()).digest()


def tree_digest(children: dict[bytes, bytes]) -> bytes:
    """Digest of a directory from its children's names and raw 32-byte digests."""
    body = b"".join(name + b"\x00" + children[name] for name in sorted(children))
    return hashlib.sha256(b"tree\x00" + body).digest()


def merkle_digest(root: Path, exclude: frozenset[str] = frozenset({".git"})) -> str:
    """Lowercase hex Merkle digest of the directory `root`; `.git` is excluded at every level."""
    return _directory(os.fsencode(root), exclude).hex()


def _directory(path: bytes, exclude: frozenset[str]) -> bytes:
    children: dict[bytes, bytes] = {}
    with os.scandir(path) as entries:
        for entry in entries:
            if os.fsdecode(entry.name) in exclude:
                continue
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(info.st_mode):
                children[entry.name] = symlink_digest(os.readlink(entry.path))
            elif stat.S_ISDIR(info.st_mode):
                children[entry.name] = _directory(entry.path, exclude)
            elif stat.S_ISREG(info.st_mode):
                with open(entry.path, "rb") as handle:
                    content = handle.read()
                children[entry.name] = file_digest(content, bool(info.st_mode & 0o111))
    return tree_digest(children)


def tier_digest(root: Path) -> str:
    """Merkle digest of a tier directory; caches that running its tests leaves are not the tier."""
    return merkle_digest(root, frozenset({".git", "__pycache__", ".pytest_cache"}))


def scorecard_digest(card: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of the scorecard without `receipt.scorecard_sha256`."""
    stripped = copy.deepcopy(card)
    stripped.get("receipt", {}).pop("scorecard_sha256", None)
    return hashlib.sha256(canonical_json(stripped)).hexdigest()


def seal(card: dict[str, Any]) -> dict[str, Any]:
    """The scorecard with `receipt.scorecard_sha256` filled in."""
    sealed = copy.deepcopy(card)
    sealed["receipt"]["scorecard_sha256"] = scorecard_digest(sealed)
    return sealed
