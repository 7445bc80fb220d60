"""The review packet of a run (RUN_DIR/review/packet.md and packet.json): what two reviewers
need to rate the work without running anything. The cumulative diff from the baseline to the
graded commit, the story of each session (its cutoff, tokens, trajectory summary or why there is
none, the Stage II perturbations it met, the risky moves found in it) from the scorecard, and the
rubric. Everything the agent wrote (the diff, paths, commands) is shown inertly."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specsnap.render.markup import ZWSP, code
from specsnap.review.rubric import RUBRIC
from specsnap.rundir import load_run
from specsnap.sandbox.gitrepo import GitError, git
from specsnap.scorecard.io import load_scorecard, scorecard_document
from specsnap.scorecard.model import Scorecard
from specsnap.scorecard.receipt import scorecard_digest

#: The whole packet in Markdown stays within this (a PR comment holds at most 65536 characters,
#: and the bot adds where the review stands); the diff gets what the rest leaves, the whole diff
#: is always in packet.json.
MARKDOWN_BUDGET = 56_000


@dataclass(frozen=True)
class Packet:
    data: dict[str, Any]  # packet.json
    markdown: str  # packet.md, and the body of the bot's packet comment


def build_packet(run_dir: Path) -> Packet:
    card = load_scorecard(run_dir / "scorecard.json")
    digest = scorecard_digest(scorecard_document(card))
    run = load_run(run_dir)
    head = card.receipt.head_commit
    diff, stat = _diff(run.sandbox, run.baseline_commit, head)
    data: dict[str, Any] = {
        "scorecard_sha256": digest,
        "run": {
            "tier_id": card.tier_id,
            "seed": card.seed,
            "agent": card.agent.name,
            "stage": card.stage,
            "handoff": card.handoff_mode,
            "baseline_commit": run.baseline_commit,
            "head_commit": head,
        },
        "diff": {"stat": stat, "text": diff},
        "sessions": _sessions(card),
        "rubric": [
            {"key": q.key, "name": q.name, "question": q.text, "scale": q.scale} for q in RUBRIC
        ],
    }
    return Packet(data, render_packet(data))


def _diff(sandbox: Path, base: str, head: str | None) -> tuple[str, str]:
    if not head or not base:
        return "", "no graded commit"
    try:
        text = git(sandbox, "diff", "--no-color", "--no-ext-diff", base, head)
        stat = git(sandbox, "diff", "--no-color", "--shortstat", base, head)
    except GitError as exc:
        return "", f"the diff could not be read: {exc}"
    return text.decode("utf-8", "replace"), stat.decode("utf-8", "replace").strip() or "no change"


def _sessions(card: Scorecard) -> list[dict[str, Any]]:
    work = {w.session: w for w in card.work.sessions} if card.work else {}
    moves = card.work.risky_moves if card.work else ()
    perturbations = card.stage2.perturbations if card.stage2 else ()
    story = []
    for s in card.sessions:
        cut = s.cutoff
        if not cut.armed:
            cutoff = "not armed (the last session)"
        elif cut.fired:
            cutoff = f"fired on {cut.reason}" + (f" ({cut.file})" if cut.file else "")
        else:
            cutoff = "armed, did not fire"
        summary = work.get(s.index)
        trajectory: dict[str, Any] | str | None
        if summary is None:
            trajectory = None
        elif summary.trajectory is None:
            trajectory = summary.why
        else:
            t = summary.trajectory
            trajectory = {
                "turns": t.turns,
                "actions": dict(t.actions),
                "test_runs": t.test_runs,
                "longest_failing_streak": t.longest_failing_streak,
                "tokens_before_first_edit": t.tokens_before_first_edit,
                "rediscovered_files": t.rediscovered_files,
            }
        story.append(
            {
                "session": s.index,
                "cutoff": cutoff,
                "tokens": s.tokens.input + s.tokens.output,
                "trajectory": trajectory,
                "perturbations": [
                    f"{p.kind}: {p.what}" for p in perturbations if p.session == s.index
                ],
                "risky_moves": [
                    f"{m.kind} at {m.where}"
                    + (f": {m.file or m.command}" if m.file or m.command else "")
                    for m in moves
                    if m.session == s.index
                ],
            }
        )
    return story


def render_packet(data: dict[str, Any]) -> str:
    """The packet in Markdown, at most MARKDOWN_BUDGET characters (the diff cut to fit)."""
    text = data["diff"]["text"]
    rest = len(_render(data, "", len(text)))
    shown = text[: max(0, MARKDOWN_BUDGET - rest - 200)]
    if len(shown) < len(text):
        shown = shown[: shown.rfind("\n") + 1]  # whole lines only
    return _render(data, shown, len(text))


def _render(data: dict[str, Any], shown: str, whole: int) -> str:
    run = data["run"]
    lines = [
        f"## SpecSnap review packet: {code(run['tier_id'])}, seed {run['seed']}, "
        f"agent {code(run['agent'])}",
        "",
        f"Scorecard {code(data['scorecard_sha256'])}; the cumulative diff from the baseline "
        f"{code(run['baseline_commit'][:12])} to the graded commit "
        f"{code((run['head_commit'] or 'none')[:12])}. Nothing here changes a score.",
        "",
        "### The sessions",
        "",
    ]
    for s in data["sessions"]:
        t = s["trajectory"]
        if isinstance(t, dict):
            acts = ", ".join(f"{k} {v}" for k, v in sorted(t["actions"].items())) or "no actions"
            said = f"{t['turns']} turns ({acts}), {t['test_runs']} test runs"
        else:
            said = f"trajectory: {t or 'not recorded'}"
        lines.append(
            f"- Session {s['session']}: cutoff {code(s['cutoff'])}; {s['tokens']} tokens; {said}"
        )
        lines += [f"  - perturbation: {code(p)}" for p in s["perturbations"]]
        lines += [f"  - risky move: {code(m)}" for m in s["risky_moves"]]
    cut = (
        ""
        if len(shown) == whole
        else f"\n\nThe diff is cut at {len(shown)} of {whole} characters: packet.json has it all."
    )
    lines += [
        "",
        f"### The diff ({code(data['diff']['stat'])})",
        "",
        "<details><summary>Show the diff</summary>",
        "",
        fenced(shown, "diff"),
        "",
        f"</details>{cut}",
        "",
        "### The rubric (1 worst … 5 best, a one-line reason each)",
        "",
    ]
    lines += [f"- **{q['key']}** {q['question']} ({q['scale']})" for q in data["rubric"]]
    lines += [
        "",
        "Rate with one comment, every question, each rating followed by its reason in quotes:",
        "",
        "```",
        '/specsnap review q1=4 "reason" q2=5 "reason" q3=3 "reason" q4=4 "reason" q5=4 "reason"',
        "```",
        "",
        "Your ratings stay hidden until a second reviewer has rated.",
    ]
    return "\n".join(lines) + "\n"


def fenced(body: str, info: str = "") -> str:
    """`body` in a fenced code block no line of it can close (and no HTML comment opener)."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    safe = body.replace("<!--", "<!" + ZWSP + "--").rstrip("\n")
    return f"{fence}{info}\n{safe}\n{fence}"
