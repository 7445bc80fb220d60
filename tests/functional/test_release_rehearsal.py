"""The release rehearsal (docs/release.md): tag → image build → push → the quick start on a
runner, played end to end here, so the first real release is a known path.

GitHub is the loopback one (tests/support/github_server.py), ghcr.io a local registry
(tests/support/registry.py), the runner the workflow player (tests/support/workflow_player.py).
What release.yml checks and pushes, and what action.yml pulls, are read from those files, never
copied: a release that would push one image and run another fails here first.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.functional.test_docker_action import (
    NOT_PASSED,
    RAN,
    new_runner,
    outcomes,
    played,
)
from tests.support.action_runner import (
    AGENT_REPO,
    HEAD,
    REPO,
    TOKEN,
    github_api,
    ours,
    pull_request_event,
)
from tests.support.github_server import GitHubServer
from tests.support.registry import Registry, local_registry
from tests.support.workflow_player import parse_outputs, pull_action_image, substitute

pytestmark = [pytest.mark.docker, pytest.mark.slow, pytest.mark.xdist_group("docker")]

ROOT = Path(__file__).resolve().parents[2]
RELEASE = ROOT / ".github" / "workflows" / "release.yml"
ACTION = ROOT / "action.yml"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
OWNER = "specsnap"  # the repository's owner, whose ghcr.io namespace action.yml names


def release_step(name: str) -> dict[str, Any]:
    """The step of release.yml's job called `name`."""
    steps = yaml.safe_load(RELEASE.read_text())["jobs"]["images"]["steps"]
    (step,) = (s for s in steps if s.get("name") == name)
    return dict(step)


def on_tag(tag: str, owner: str = OWNER) -> dict[str, Any]:
    """The expression context of release.yml's job when `tag` is pushed."""
    return {"github": {"ref_name": tag, "repository_owner": owner}}


def check_the_tag(
    tag: str, checkout: Path = ROOT, owner: str = OWNER
) -> subprocess.CompletedProcess[str]:
    """release.yml's check before anything is pushed, its own `run:` script with its own `env:`,
    in the tagged checkout (this one), as a runner's bash runs a step; the outputs it set are
    in the result's `outputs` attribute."""
    step = release_step("The tag is the version everywhere")
    env = {k: substitute(str(v), on_tag(tag, owner)) for k, v in step["env"].items()}
    with tempfile.NamedTemporaryFile("r", suffix=".output") as output:
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=checkout,
            env={"PATH": "/usr/local/bin:/usr/bin:/bin", "GITHUB_OUTPUT": output.name, **env},
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        done.outputs = parse_outputs(output.read())  # type: ignore[attr-defined]
    return done


def docker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args], capture_output=True, text=True, check=False, timeout=900
    )


def bumped_without_action_yml(scratch: Path) -> Path:
    """A checkout with the usual slip: pyproject.toml bumped to 9.9.9, action.yml not."""
    scratch.mkdir()
    pyproject = (ROOT / "pyproject.toml").read_text()
    (scratch / "pyproject.toml").write_text(
        pyproject.replace(f'version = "{VERSION}"', 'version = "9.9.9"', 1)
    )
    (scratch / "action.yml").write_text(ACTION.read_text())
    return scratch


def push(registry: Registry, image_id: str, local: str) -> str:
    """`image_id` pushed to `registry` as `local`, then that name removed from the engine, so
    that only the registry holds it by that name: the digest pushed."""
    assert docker("tag", image_id, local).returncode == 0
    pushed = docker("push", local)
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr
    digest = re.search(r"digest: (sha256:[0-9a-f]{64})", pushed.stdout)
    assert digest, pushed.stdout
    repository, _, tag = local.removeprefix(f"{registry.host}/").rpartition(":")
    assert registry.manifest_digest(repository, tag) == digest.group(1)
    assert docker("rmi", local).returncode == 0
    assert docker("image", "inspect", local).returncode != 0
    return digest.group(1)


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Registry]:
    with local_registry(tmp_path / "registry") as running:
        yield running


@pytest.fixture
def github() -> Iterator[GitHubServer]:
    with github_api(lifetime=900) as server:
        yield server


@pytest.fixture
def pushed_names() -> Iterator[list[str]]:
    """The names the rehearsal gives images in the engine, removed afterwards (only those:
    the image itself stays, under the suite's own tag)."""
    names: list[str] = []
    yield names
    for name in names:
        docker("rmi", name)


def test_a_release_is_tagged_built_pushed_and_run_by_the_quick_start(
    image: str, tmp_path: Path, registry: Registry, github: GitHubServer, pushed_names: list[str]
) -> None:
    # 1. Tag: only v<pyproject's version>, the tag action.yml's image has, gets past the check.
    tag = f"v{VERSION}"
    assert check_the_tag(tag).returncode == 0, check_the_tag(tag).stdout
    # An owner's name may have capitals; the image references it pushes may not.
    mixed = check_the_tag(tag, owner="SpecSnap")
    assert mixed.outputs["image"] == f"ghcr.io/specsnap/specsnap:{tag}", mixed  # type: ignore[attr-defined]
    for wrong in (f"v{VERSION}.1", VERSION):
        refused = check_the_tag(wrong)
        assert refused.returncode == 1, refused
        assert f"::error::tag {wrong} is not v{VERSION} (pyproject.toml)" in refused.stdout
    refused = check_the_tag("v9.9.9", bumped_without_action_yml(tmp_path / "bumped"))
    assert refused.returncode == 1, refused
    assert "::error::action.yml does not point at docker://ghcr.io/specsnap/specsnap:v9.9.9" in (
        refused.stdout
    )

    # 2. Build: the Dockerfile's target `action`, as release.yml builds it (the suite's build).
    build = release_step("The Action's image")["with"]
    assert (build["context"], build["target"], build["push"]) == (".", "action", True)
    check = release_step("The tag is the version everywhere")
    steps = {check["id"]: {"outputs": check_the_tag(tag).outputs}}  # type: ignore[attr-defined]
    released = substitute(build["tags"], {**on_tag(tag), "steps": steps})
    assert yaml.safe_load(ACTION.read_text())["runs"]["image"] == f"docker://{released}"
    built = docker("image", "inspect", "--format", "{{.Id}}", image).stdout.strip()
    assert built.startswith("sha256:"), image

    # 3. Push what release.yml pushes, to the local registry in ghcr.io's place.
    assert released.startswith("ghcr.io/"), released
    local = registry.host + released.removeprefix("ghcr.io")
    pushed_names.append(local)
    pushed = push(registry, built, local)

    # 4. The quick start on a runner that pulls action.yml's image (from the local registry).
    pulled = pull_action_image(ACTION, {"ghcr.io": registry.host})
    pushed_names.append(pulled)
    assert pulled == f"{local.rpartition(':')[0]}@{pushed}"
    assert docker("image", "inspect", "--format", "{{.Id}}", pulled).stdout.strip() == built
    runner = new_runner(pulled, tmp_path, AGENT_REPO, github)
    jobs = runner.play(
        ROOT / "docs" / "examples" / "workflows" / "own-agent.yml",
        "pull_request",
        pull_request_event(),
        TOKEN,
        {"ANTHROPIC_API_KEY": "sk-ant-test-not-used-by-a-model-free-agent"},
    )
    log = played(runner)
    announce, evaluate, aggregate = runner.jobs
    assert outcomes(announce) == [RAN], log
    ran = [step for step in evaluate.steps.values() if step.step and step.code is not None]
    assert [s.step for s in ran] == ["prepare", "session", "session", "grade", "publish"], log
    assert outcomes(aggregate) == [RAN, NOT_PASSED, RAN], log  # tinyagent does not pass tier-2
    assert jobs["specsnap"].result == "failure"
    # It ends with a scorecard, a check run and a comment, all from the pushed image.
    card = json.loads((runner.artifacts / "specsnap-tier-2-seed-1" / "scorecard.json").read_text())
    assert card["agent"]["name"] == "tinyagent" and card["grading"]["run_problem"] is None
    assert card["receipt"]["scorecard_sha256"], card["receipt"]
    (check,) = github.repos[REPO].check_runs.values()
    assert check["head_sha"] == HEAD and check["conclusion"] == "failure", check
    (comment,) = ours(github)
    assert "`tinyagent`" in comment["body"] and "| tier-2, seed 1 |" in comment["body"]
