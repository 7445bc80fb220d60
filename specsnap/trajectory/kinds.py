"""What kind of action a tool call is (read, edit, shell, search, other) and what it acts on, from
an allowlist of the tool names each supported harness gives its model. A name not listed is
`other`: a new tool never counts as an edit or a test run by guesswork."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Kind = Literal["read", "edit", "shell", "search", "other"]
KINDS: tuple[Kind, ...] = ("read", "edit", "shell", "search", "other")

#: How many characters of a target (a path or a command) a trajectory keeps.
TARGET_CHARS = 300

#: Tool name → kind, for Claude Code, Codex and Gemini CLI (aider edits in its replies' text and
#: has no tools). Names are matched exactly.
TOOL_KINDS: Mapping[str, Kind] = {
    # Claude Code
    "Read": "read", "NotebookRead": "read", "LS": "read",
    "Write": "edit", "Edit": "edit", "MultiEdit": "edit", "NotebookEdit": "edit",
    "Bash": "shell", "BashOutput": "shell",
    "Grep": "search", "Glob": "search",
    # Codex
    "shell": "shell", "exec_command": "shell", "local_shell": "shell", "container.exec": "shell",
    "apply_patch": "edit", "read_file": "read", "list_dir": "read", "grep_files": "search",
    # Gemini CLI
    "read_many_files": "read", "list_directory": "read",
    "write_file": "edit", "replace": "edit", "edit": "edit",
    "run_shell_command": "shell",
    "search_file_content": "search", "grep": "search", "glob": "search",
}  # fmt: skip

#: The argument that names a call's target, tried in order.
TARGET_ARGUMENTS = (
    "file_path", "absolute_path", "path", "notebook_path", "command", "cmd", "pattern", "paths",
    "input",
)  # fmt: skip


def kind_of(name: str) -> Kind:
    """The kind of a tool by its name (unknown → other)."""
    return TOOL_KINDS.get(name, "other")


def target_of(arguments: Mapping[str, Any]) -> str:
    """The path or command a call acts on, bounded; "" when it names none."""
    for key in TARGET_ARGUMENTS:
        value = arguments.get(key)
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        if isinstance(value, str) and value:
            return value[:TARGET_CHARS]
    return ""
