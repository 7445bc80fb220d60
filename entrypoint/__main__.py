"""Container entry point: `python3 /opt/specsnap/entrypoint/__main__.py` (or `-m entrypoint`)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

if __package__ in (None, ""):
    # Run as a script by the image's ENTRYPOINT: make the `entrypoint` package importable.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from entrypoint.gha import GitHubActions
from entrypoint.main import main
from entrypoint.settings import read_settings
from specsnap.errors import InputError


def run() -> int:
    gha = GitHubActions(os.environ)
    # PyGithub logs each retry and rate-limit wait at INFO; show them in the job log.
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    logging.getLogger("github.GithubRetry").setLevel(logging.INFO)
    try:
        settings = read_settings(os.environ)
    except InputError as exc:
        for problem in exc.problems:
            gha.error(
                f"{problem.key}: got {problem.value}; expected {problem.expected}",
                title="SpecSnap: bad input",
            )
        return exc.exit_code
    if settings.api is not None:
        gha.add_mask(settings.api.token)
    return main(settings, gha)


if __name__ == "__main__":
    sys.exit(run())
