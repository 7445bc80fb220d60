"""A pytest plugin for benchmarks only: the bridge's test API served in-process, without a subject.

It gives the hidden tests the same `subject` and `params` fixtures as the judge, but `module()`
imports the graded code into the test process itself, and values are converted with the same
codec. This is the "bare pytest" baseline of benchmarks/grade_overhead.py: the same tests on the
same export with no isolation at all. Never used for grading.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from bridge_codec import decode_plain, encode_plain


class LocalError(Exception):
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc
        self.ref = exc  # as RemoteError.ref: the exception object itself
        self.type = f"{type(exc).__module__}.{type(exc).__qualname__}"
        self.message = str(exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["exc"], name)


class Info:
    value: LocalError


class LocalSubject:
    def module(self, name: str) -> Any:
        return importlib.import_module(name)

    def value(self, value: Any) -> Any:
        return decode_plain(encode_plain(value), lambda d: d)

    def str(self, value: Any) -> str:
        return str(value)

    def _resolve(self, name: str) -> Any:
        module, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(module), attribute)

    def isinstance(self, value: Any, name: str) -> bool:
        return isinstance(value, self._resolve(name))

    @contextlib.contextmanager
    def raises(self, name: str, match: str | None = None) -> Iterator[Info]:
        info = Info()
        try:
            yield info
        except BaseException as exc:
            if not isinstance(exc, self._resolve(name)):
                raise
            if match is not None and not re.search(match, str(exc)):
                pytest.fail(f"{exc!r} does not match {match!r}")
            info.value = LocalError(exc)
            return
        pytest.fail(f"expected {name} to be raised")

    def input_file(self, name: str, content: str | bytes) -> str:
        fd, path = tempfile.mkstemp(suffix=f"-{name}")
        with os.fdopen(fd, "wb" if isinstance(content, bytes) else "w") as handle:
            handle.write(content)
        return path


@pytest.fixture
def subject() -> LocalSubject:
    return LocalSubject()


@pytest.fixture(scope="session")
def params() -> Any:
    return json.loads(os.environ.get("SPECSNAP_BENCH_PARAMS", "{}"))
