"""A local container registry for the release rehearsal (test_release_rehearsal.py).

Debian's `docker-registry` (the CNCF distribution registry, `.ci/run` installs it), started by
the test on a free port of 127.0.0.1 with its storage in the test's temporary directory. Never
the system service the package ships: this one listens on loopback only, holds nothing after
the test, and stops by itself — when the block ends, or after `lifetime` seconds under
`timeout` should the test process die first. The Docker engine pushes to and pulls from it over
plain HTTP, as it does for any registry on 127.0.0.0/8.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

MANIFEST_TYPES = (
    "application/vnd.docker.distribution.manifest.v2+json",
    "application/vnd.docker.distribution.manifest.list.v2+json",
    "application/vnd.oci.image.manifest.v1+json",
    "application/vnd.oci.image.index.v1+json",
)


@dataclass(frozen=True)
class Registry:
    """A running registry: where it listens, and the log it writes."""

    host: str  # 127.0.0.1:PORT, as image references name it
    log: Path

    def manifest_digest(self, repository: str, tag: str) -> str:
        """The digest the registry serves `repository:tag` under (its Docker-Content-Digest)."""
        request = urllib.request.Request(
            f"http://{self.host}/v2/{repository}/manifests/{tag}",
            method="HEAD",
            headers={"Accept": ", ".join(MANIFEST_TYPES)},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return str(response.headers["Docker-Content-Digest"])


@contextlib.contextmanager
def local_registry(storage: Path, lifetime: float = 900) -> Iterator[Registry]:
    """A registry on a free loopback port storing into `storage`, stopped when the block ends."""
    binary = shutil.which("docker-registry")
    if binary is None:
        pytest.skip("no local registry: apt-get install docker-registry")
    storage.mkdir(parents=True, exist_ok=True)
    host = f"127.0.0.1:{_free_port()}"
    config = storage / "config.yml"
    config.write_text(  # JSON is YAML
        json.dumps(
            {
                "version": 0.1,
                "log": {"level": "info"},
                "storage": {"filesystem": {"rootdirectory": str(storage / "data")}},
                "http": {"addr": host},
            }
        )
    )
    log = storage / "registry.log"
    with log.open("ab") as out:
        server = subprocess.Popen(
            ["timeout", str(int(lifetime)), binary, "serve", str(config)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_it_answers(host, server, log)
        yield Registry(host, log)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_it_answers(host: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Until `GET /v2/` answers 200 (the registry API's version check)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://{host}/v2/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            raise AssertionError(f"the registry did not start on {host}: {log.read_text()[-2000:]}")
        time.sleep(0.2)
