"""Rendering a scorecard for people: Markdown (scorecard.md, PR comments) and a terminal summary.

Pure functions of the scorecard dict.
"""

from __future__ import annotations

from typing import Any


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def verdict(card: dict[str, Any]) -> str:
    return "PASS" if card["scores"]["pass"] else "FAIL"


def gate_reasons(gate: dict[str, Any]) -> list[str]:
    """One line for each reason the regression gate does not hold."""
    reasons = []
    for failure in gate["baseline_failures"]:
        reasons.append(f"baseline test `{failure['test']}`: {failure['outcome']}")
    for change in gate["protected_changes"]:
        reasons.append(f"protected file `{change['path']}` {change['change']}")
    for v in gate["wiring_violations"]:
        reasons.append(
            f"boundary: `{v['importer']}` imports `{v['imported']}` ({v['file']}:{v['line']}, "
            f"{v['kind']}): {v['rule']}"
        )
    for breach in gate["protocol_breaches"]:
        where = f" in session {breach['session']}" if breach.get("session") else ""
        reasons.append(f"protocol breach{where}: {breach.get('what')}")
    return reasons


def render_markdown(card: dict[str, Any]) -> str:
    """The whole scorecard as GitHub-flavoured Markdown."""
    s = card["scores"]
    tokens = "unknown" if s["effective_tokens"] is None else f"{s['effective_tokens']:,.0f}"
    lines = [
        f"## SpecSnap · {card['tier_id']} · {card['agent']['name']} · seed {card['seed']} · "
        f"**{verdict(card)}**",
        "",
        "| raw retention | net retention | TES | effective tokens / budget |",
        "|---:|---:|---:|---:|",
        f"| {percent(s['raw_retention'])} | {percent(s['net_retention'])} | {percent(s['tes'])} "
        f"| {tokens} / {s['budget']:,} |",
        "",
    ]
    if not card["official"]:
        lines += ["> Unofficial: " + "; ".join(card.get("unofficial_reasons", [])), ""]
    reasons = gate_reasons(card["gate"])
    if reasons:
        lines += ["**Regression gate failed** — net retention is 0:", ""]
        lines += [f"- {r}" for r in reasons[:50]]
        if len(reasons) > 50:
            lines.append(f"- … and {len(reasons) - 50} more (see scorecard.json)")
        lines.append("")
    else:
        lines += ["Regression gate holds: baseline, protected files, boundaries, protocol.", ""]
    lines += ["| requirement | package | result |", "|---|---|---|"]
    for req in card["requirements"]:
        mark = "✅ passed" if req["passed"] else "❌ " + _first_failure(req)
        lines.append(f"| {req['id']} {_cell(req['title'])} | {req.get('package', '')} | {mark} |")
    lines += ["", "| session | exit | cutoff | tokens (in/out/cache w/r) |", "|---|---|---|---|"]
    for sess in card["sessions"]:
        lines.append(
            f"| {sess['index']} | {_exit(sess['exit'])} | {_cutoff(sess['cutoff'])} "
            f"| {_tokens(sess['tokens'])} |"
        )
    r = card["receipt"]
    lines += [
        "",
        f"<sub>receipt: scorecard `{r['scorecard_sha256'][:16]}` · tree "
        f"`{(r['sandbox_tree_sha256'] or 'none')[:16]}` · tier `{r['tier_sha256'][:16]}` · "
        f"SpecSnap {r['specsnap_version']} · verify with `specsnap verify scorecard.json`</sub>",
        "",
    ]
    return "\n".join(lines)


def render_summary(card: dict[str, Any]) -> str:
    """A few plain lines for the terminal."""
    s = card["scores"]
    passed = sum(r["passed"] for r in card["requirements"])
    lines = [
        f"{card['tier_id']} · agent {card['agent']['name']} · seed {card['seed']}: {verdict(card)}",
        f"  requirements  {passed}/{len(card['requirements'])}   raw {percent(s['raw_retention'])}"
        f"   net {percent(s['net_retention'])}   TES {percent(s['tes'])}",
    ]
    for sess in card["sessions"]:
        lines.append(
            f"  session {sess['index']}: {_exit(sess['exit'])}; cutoff {_cutoff(sess['cutoff'])};"
            f" tokens {_tokens(sess['tokens'])}"
        )
    reasons = gate_reasons(card["gate"])
    lines += [f"  gate: {r}" for r in reasons[:10]]
    if len(reasons) > 10:
        lines.append(f"  gate: … {len(reasons) - 10} more")
    return "\n".join(lines)


def _first_failure(req: dict[str, Any]) -> str:
    for test in req["tests"]:
        if test["outcome"] != "passed":
            return f"{test['outcome']}: `{test['id'].split('::')[-1]}`"
    return "failed"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _exit(exit_info: dict[str, Any]) -> str:
    status = str(exit_info["status"])
    if exit_info.get("code") not in (None, 0):
        status += f" ({exit_info['code']})"
    return status


def _cutoff(cutoff: dict[str, Any]) -> str:
    if cutoff.get("fired"):
        return f"fired on `{cutoff.get('file')}`"
    return "not armed" if not cutoff.get("armed") else "armed, did not fire"


def _tokens(t: dict[str, Any]) -> str:
    if t["source"] == "unknown":
        return "unknown"
    return (
        f"{t['input']:,}/{t['output']:,}/{t['cache_write']:,}/{t['cache_read']:,} ({t['source']})"
    )
