"""Trust v3, class 1: nothing SpecSnap runs as root reads configuration the agent wrote.

The attacker is the honest Stage II agent of test_stage2 (in session 2 it applies the
reference and the root-cause fix, and commits) that also plants, in session 1, every git
setting and attribute kind that runs a program or changes content: merge and diff drivers,
textconv, clean/smudge filters, `include.path`, pager, editor, askpass, ssh, fsmonitor, hooks,
gpg signing, credential helper, pack hooks, `diff.external`, CRLF and `ident` attributes (in the
config, an included file, `.gitattributes`, `info/attributes` and `core.attributesFile`), plus
pytest, pip and npm configuration in the sandbox and the agent's home. Every planted program
logs its kind and uid. SpecSnap runs git between the sessions (a teammate's commits, lost
work, a stale note), while the session runs (the reconciliation) and to grade; none of that
may run a planted program as root, and the run must score what the honest agent scores.

The same log, filled by plain git run as root on a copy of the attacker's repository, shows the
planted settings are live: git would run them. (In this two-session tier the teammate's commit
applies to an untouched HEAD, so git would need no merge; the merge driver that keeps the
agent's side of a real three-way merge is played at that step, in
tests/unit/stage2/perturbations/test_workspace.py, and ran as root before this fix.)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import FIXTURE_TIERS
from tests.functional.cli import specsnap, without_timings
from tests.functional.test_stage2 import fix_script

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="official mode: SpecSnap runs as root"),
]

KINDS = [
    "merge-driver",
    "textconv",
    "diff-command",
    "diff-external",
    "clean",
    "smudge",
    "pager",
    "editor",
    "askpass",
    "ssh",
    "fsmonitor",
    "gpg",
    "ssh-sign",
    "credential",
    "pack-hook",
    "alternate-refs",
    "sequence-editor",
    "include-pager",
    "hook",
    "pip",
    "npm",
    "pytest-plugin",
]

PROGRAM = """#!/bin/sh
# {kind}: log who ran it, then behave harmlessly for the agent's own git.
echo "{kind} $(id -u)" >> {log}
case {kind} in
  clean|smudge) exec cat ;;
  textconv) exec cat "$1" ;;
  gpg|ssh-sign) printf '\\n[GNUPG:] SIG_CREATED D 1 8 00 0 x\\n' >&2
       printf -- '-----BEGIN PGP SIGNATURE-----\\nx\\n-----END PGP SIGNATURE-----\\n' ;;
esac
exit 0
"""

ATTRIBUTES = "* merge=evil diff=evil filter=evil ident text eol=crlf working-tree-encoding=UTF-8\n"

GIT_CONFIG = """
[include]
\tpath = included.cfg
[core]
\tpager = {bin}/pager
\teditor = {bin}/editor
\taskPass = {bin}/askpass
\tsshCommand = {bin}/ssh
\tfsmonitor = {bin}/fsmonitor
\thooksPath = {hooks}
\tattributesFile = {attributes}
\talternateRefsCommand = {bin}/alternate-refs
\tautocrlf = true
[merge "evil"]
\tdriver = {bin}/merge-driver %O %A %B
[diff "evil"]
\ttextconv = {bin}/textconv
\tcommand = {bin}/diff-command
[diff]
\texternal = {bin}/diff-external
[filter "evil"]
\tclean = {bin}/clean
\tsmudge = {bin}/smudge
[commit]
\tgpgSign = true
[user]
\tsigningKey = x
[gpg]
\tprogram = {bin}/gpg
[sequence]
\teditor = {bin}/sequence-editor
[credential]
\thelper = {bin}/credential
[uploadpack]
\tpackObjectsHook = {bin}/pack-hook
"""

INCLUDED = '[core]\n\tpager = {bin}/include-pager\n[gpg "ssh"]\n\tprogram = {bin}/ssh-sign\n'

HOOKS = [
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-checkout",
    "post-merge",
    "post-rewrite",
    "pre-auto-gc",
    "reference-transaction",
    "post-index-change",
    "pre-push",
]

PYTEST_PLUGIN = "open({log!r}, 'a').write('pytest-plugin %d\\n' % __import__('os').getuid())\n"


def plant(folder: Path) -> str:
    """The planting script (first session only), and the programs it points at."""
    bin_dir, log = folder / "bin", folder / "log"
    bin_dir.mkdir(parents=True)
    log.touch()
    log.chmod(0o666)
    for kind in KINDS:
        path = bin_dir / kind
        path.write_text(PROGRAM.format(kind=kind, log=log))
        path.chmod(0o755)
    hooks = folder / "hooks"
    hooks.mkdir()
    for hook in HOOKS:
        (hooks / hook).write_text(f"#!/bin/sh\n{bin_dir}/hook {hook}\n")
        (hooks / hook).chmod(0o755)
    (folder / "attributes").write_text(ATTRIBUTES)
    (folder / "config").write_text(
        GIT_CONFIG.format(bin=bin_dir, hooks=hooks, attributes=folder / "attributes")
    )
    (folder / "included.cfg").write_text(INCLUDED.format(bin=bin_dir))
    pip = f"[global]\nindex-url = http://127.0.0.1:9/\n[install]\nsrc = {bin_dir}/pip\n"
    npm = f"script-shell={bin_dir}/npm\nonload-script={bin_dir}/npm\n"
    (folder / "pip.conf").write_text(pip)
    (folder / "npmrc").write_text(npm)
    (folder / "plugin.py").write_text(PYTEST_PLUGIN.format(log=str(log)))
    for dirpath, _dirs, files in os.walk(folder):
        os.chmod(dirpath, 0o755)
        for name in files:
            path = Path(dirpath) / name
            if path != log:
                path.chmod(0o755 if path.parent in (bin_dir, hooks) else 0o644)
    # pytest configuration the hidden tests' run would honour if it read the sandbox's: the
    # plugin itself is product code, written in session 2 with the honest work.
    pytest_ini = "[pytest]\naddopts = -p evil_plugin\n"
    return (
        "if ! grep -q '^Continue' {prompt_file}; then "
        f"cat {folder}/config >> .git/config && cp {folder}/included.cfg .git/ && "
        f"printf '{ATTRIBUTES}' > .gitattributes && mkdir -p .git/info && "
        f"printf '{ATTRIBUTES}' > .git/info/attributes && "
        f"printf '{pytest_ini}' > pytest.ini && cp pytest.ini tox.ini && "
        f"printf '[tool:pytest]\\naddopts = -p evil_plugin\\n' > setup.cfg && "
        f"cp {folder}/pip.conf pip.conf && mkdir -p $HOME/.config/pip $HOME/.pip && "
        f"cp {folder}/pip.conf $HOME/.config/pip/ && cp {folder}/pip.conf $HOME/.pip/ && "
        f"cp {folder}/npmrc .npmrc && cp {folder}/npmrc $HOME/.npmrc; "
        f"else cp {folder}/plugin.py evil_plugin.py; fi; "
    )


def run(out: Path, command: str) -> dict:  # type: ignore[type-arg]
    args = ["run", "--tier", "90", "--seed", "3", "--stage", "2", "--agent", "command"]
    args += ["--perturb", "planted-regression", "--agent-opt", f"cmd={command}"]
    proc = specsnap(*args, "--out", str(out), tiers=FIXTURE_TIERS)
    assert (out / "scorecard.json").is_file(), proc.stderr
    return json.loads((out / "scorecard.json").read_text())  # type: ignore[no-any-return]


def outcome(card: dict) -> dict:  # type: ignore[type-arg]
    """What the attack could gain: scores, requirements, the gate, each perturbation's fate."""
    return without_timings(
        {
            "scores": {k: card["scores"][k] for k in ("raw_retention", "net_retention")},
            "requirements": {r["id"]: r["passed"] for r in card["requirements"]},
            "breaches": card["gate"]["protocol_breaches"],
            "perturbations": [
                {k: p[k] for k in ("kind", "applied")}  # detected/repaired: its own git's doing
                for p in card["stage2"]["perturbations"]
            ],
        }
    )


def test_root_never_runs_what_the_agent_configured(tmp_path: Path) -> None:
    honest_command = fix_script(tmp_path / "honest", "root")
    honest = run(tmp_path / "honest" / "run", honest_command)
    assert honest["scores"]["net_retention"] == 1.0, tmp_path  # the honest agent at its score

    folder = tmp_path / "planted"
    attack = plant(folder) + fix_script(tmp_path / "attacker", "root")
    attacked = run(tmp_path / "attacker" / "run", attack)
    log = (folder / "log").read_text().splitlines()
    assert [line for line in log if line.endswith(" 0")] == []  # nothing ran as root
    gained, honestly = outcome(attacked), outcome(honest)
    assert gained["perturbations"] == honestly["perturbations"]  # the regression landed
    for score in ("raw_retention", "net_retention"):  # no gain (its own git obeyed it)
        assert gained["scores"][score] <= honestly["scores"][score]
    # Setting core.hooksPath is the one named breach: it would switch off the cutoff's hook.
    assert {b["what"] for b in gained["breaches"]} == {"core.hooksPath was set in .git/config"}
    (regression,) = attacked["stage2"]["perturbations"]
    assert (regression["kind"], regression["applied"]) == ("planted-regression", True)

    # The planted settings are live: plain git, as root, on a copy of the repository runs them.
    copy = tmp_path / "copy"
    shutil.copytree(tmp_path / "attacker" / "run" / "sandbox", copy, symlinks=True)
    plain = ["git", "-c", "safe.directory=*"]
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GIT_PAGER": ""}
    subprocess.run([*plain, "diff", "HEAD~1", "--", "units"], cwd=copy, env=env, check=False)
    (copy / "units" / "convert.py").write_text("# touched\n")
    subprocess.run([*plain, "add", "-A"], cwd=copy, env=env, check=False)
    subprocess.run([*plain, "commit", "-qm", "x"], cwd=copy, env=env, check=False)
    ran = {line.split()[0] for line in (folder / "log").read_text().splitlines()[len(log) :]}
    assert {"diff-command", "clean", "gpg", "hook", "fsmonitor"} <= ran, ran
