"""The agent's stdout and stderr, kept in the session's records with a size cap per stream."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from typing import IO

CAP_BYTES = 32 * 1024 * 1024


class OutputCapture:
    """Drains both pipes into files; past the cap it keeps reading but stops writing."""

    def __init__(self, records: Path, cap: int = CAP_BYTES) -> None:
        self.stdout = records / "stdout.log"
        self.stderr = records / "stderr.log"
        self.cap = cap
        self.dropped = {"stdout": 0, "stderr": 0}
        self._threads: list[threading.Thread] = []

    def start(self, proc: subprocess.Popen[bytes], stdin: bytes | None) -> None:
        for name, pipe, path in (
            ("stdout", proc.stdout, self.stdout),
            ("stderr", proc.stderr, self.stderr),
        ):
            assert pipe is not None
            thread = threading.Thread(target=self._drain, args=(name, pipe, path), daemon=True)
            thread.start()
            self._threads.append(thread)
        if stdin is not None and proc.stdin is not None:
            threading.Thread(target=self._feed, args=(proc.stdin, stdin), daemon=True).start()

    @staticmethod
    def _feed(pipe: IO[bytes], data: bytes) -> None:
        try:
            pipe.write(data)
            pipe.close()
        except (BrokenPipeError, OSError):
            pass

    def _drain(self, name: str, pipe: IO[bytes], path: Path) -> None:
        written = 0
        with open(path, "wb") as out:
            while chunk := pipe.read1(65536):  # type: ignore[attr-defined]
                keep = max(0, min(len(chunk), self.cap - written))
                if keep:
                    out.write(chunk[:keep])
                    written += keep
                self.dropped[name] += len(chunk) - keep

    def join(self, timeout: float = 10.0) -> None:
        for thread in self._threads:
            thread.join(timeout)

    def notes(self) -> list[str]:
        return [
            f"{name} exceeded {self.cap // (1024 * 1024)} MiB; {dropped:,} bytes were not kept"
            for name, dropped in self.dropped.items()
            if dropped
        ]
