"""`GitHubActions`: the one owner of every workflow command SpecSnap's Action issues.

Outputs go to `$GITHUB_OUTPUT`, the job summary to `$GITHUB_STEP_SUMMARY`, annotations, groups
and masks to stdout as `::command::` lines, escaped as the runner expects. Outside a runner (no
files given) outputs and summary are printed instead, so a local run still shows them.
"""

from __future__ import annotations

import sys
import uuid
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from specsnap.render.limits import STEP_SUMMARY_MAX_BYTES, WORKFLOW_ANNOTATIONS_PER_LEVEL

Line = int | None


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


class GitHubActions:
    """Workflow commands for one step. Annotations are capped per level, as the runner shows
    only the first ten of each; the rest are counted in one closing notice."""

    def __init__(self, env: Mapping[str, str], stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdout
        self._output = Path(env["GITHUB_OUTPUT"]) if env.get("GITHUB_OUTPUT") else None
        self._summary = Path(env["GITHUB_STEP_SUMMARY"]) if env.get("GITHUB_STEP_SUMMARY") else None
        self._annotations: Counter[str] = Counter()
        self._summary_bytes = 0

    # -- commands on stdout -----------------------------------------------------------------
    def command(self, name: str, message: str = "", **properties: str | int | None) -> None:
        props = ",".join(
            f"{key}={escape_property(str(value))}"
            for key, value in properties.items()
            if value is not None
        )
        head = f"::{name} {props}" if props else f"::{name}"
        self._stream.write(f"{head}::{escape_data(message)}\n")
        self._stream.flush()

    def annotate(
        self,
        level: str,
        message: str,
        *,
        title: str | None = None,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        """`level` is error, warning or notice; beyond the runner's per-level cap, counted."""
        self._annotations[level] += 1
        if self._annotations[level] > WORKFLOW_ANNOTATIONS_PER_LEVEL:
            return
        self.command(level, message, title=title, file=file, line=line)

    def error(
        self,
        message: str,
        *,
        title: str | None = None,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        self.annotate("error", message, title=title, file=file, line=line)

    def warning(
        self,
        message: str,
        *,
        title: str | None = None,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        self.annotate("warning", message, title=title, file=file, line=line)

    def notice(
        self,
        message: str,
        *,
        title: str | None = None,
        file: str | None = None,
        line: int | None = None,
    ) -> None:
        self.annotate("notice", message, title=title, file=file, line=line)

    def close_annotations(self) -> None:
        """Say how many annotations the per-level cap hid (call once, at the end of the step)."""
        hidden = {
            level: count - WORKFLOW_ANNOTATIONS_PER_LEVEL
            for level, count in self._annotations.items()
            if count > WORKFLOW_ANNOTATIONS_PER_LEVEL
        }
        if hidden:
            listed = ", ".join(f"{n} {level}(s)" for level, n in sorted(hidden.items()))
            self.command("notice", f"{listed} more not shown as annotations; see the job summary")

    def add_mask(self, value: str) -> None:
        if value:
            self.command("add-mask", value)

    @contextmanager
    def group(self, title: str) -> Iterator[None]:
        self.command("group", title)
        try:
            yield
        finally:
            self.command("endgroup")

    def log(self, message: str) -> None:
        self._stream.write(message + "\n")
        self._stream.flush()

    # -- files ----------------------------------------------------------------------------
    def set_output(self, name: str, value: str) -> None:
        """One step output; multi-line values use a delimiter that cannot occur in them."""
        if self._output is None:
            self.log(f"output {name}={value}")
            return
        if "\n" in value or "\r" in value:
            delimiter = f"ghadelimiter_{uuid.uuid4()}"
            record = f"{name}<<{delimiter}\n{value}\n{delimiter}\n"
        else:
            record = f"{name}={value}\n"
        with self._output.open("a", encoding="utf-8") as out:
            out.write(record)

    def add_summary(self, markdown: str) -> None:
        """Append to the job summary, within the runner's 1 MiB per step."""
        text = markdown.rstrip("\n") + "\n\n"
        size = len(text.encode("utf-8"))
        if self._summary_bytes + size > STEP_SUMMARY_MAX_BYTES:
            self.warning("the job summary is full (1 MiB); the rest is in the workflow log")
            self.log(text)
            return
        self._summary_bytes += size
        if self._summary is None:
            self.log(text)
            return
        with self._summary.open("a", encoding="utf-8") as out:
            out.write(text)
