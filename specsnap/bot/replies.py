"""What the bot says back (pure). Replies are short, name the commit they act on, and are polite."""

from __future__ import annotations

from specsnap.bot.command import USAGE, RunCommand


def started(author: str, command: RunCommand, head_sha: str, run_url: str | None) -> str:
    where = f"[this workflow run]({run_url})" if run_url else "the SpecSnap workflow"
    return (
        f"@{author} started a SpecSnap evaluation of `{head_sha[:12]}` on **{command.tier}**, "
        f"seed {command.seed}: follow it in {where}. The scorecard will appear in this pull "
        "request's SpecSnap comment and check run."
    )


def refused(author: str, permission: str) -> str:
    return (
        f"Thanks for the interest, @{author}! Starting a SpecSnap evaluation runs this pull "
        f"request's code with the repository's secrets, so it needs write access to the "
        f"repository (yours is `{permission}`). A maintainer can start it with a comment."
    )


def invalid(author: str, problem: str) -> str:
    return f"@{author} I could not read that command: {problem}"


def usage(author: str) -> str:
    return f"@{author} usage: {USAGE}"


def not_a_pull_request(author: str) -> str:
    return f"@{author} `/specsnap run` evaluates a pull request; comment on one to start it."
