"""What the bot says back (pure). Replies are short, name the commit they act on, and are polite.

Everything in a reply that did not come from SpecSnap is made inert (specsnap.render.markup): the
commenter is mentioned only when the login is a real GitHub login, and a run link is a link only
when it is a plain https URL.
"""

from __future__ import annotations

import re

from specsnap.bot.command import USAGE, RunCommand
from specsnap.render.markup import code, text

_LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")
_URL = re.compile(r"https://[A-Za-z0-9.-]+(?::\d+)?(?:/[A-Za-z0-9._~%/-]*)?")


def started(author: str, command: RunCommand, head_sha: str, run_url: str | None) -> str:
    if run_url and _URL.fullmatch(run_url):
        where = f"[this workflow run]({run_url})"
    else:
        where = f"the workflow run {code(run_url)}" if run_url else "the SpecSnap workflow"
    return (
        f"{mention(author)} started a SpecSnap evaluation of {code(head_sha[:12])} on "
        f"**{command.tier}**, seed {command.seed}: follow it in {where}. The scorecard "
        "will appear in this pull request's SpecSnap comment and check run."
    )


def refused(author: str, permission: str) -> str:
    return (
        f"Thanks for the interest, {mention(author)}! Starting a SpecSnap evaluation runs this "
        "pull request's code with the repository's secrets, so it needs write access to the "
        f"repository (yours is {code(permission)}). A maintainer can start it with a comment."
    )


def head_moved(author: str, now: str) -> str:
    return (
        f"{mention(author)} this pull request changed after your command (its head is now "
        f"{code(now[:12])}), so nothing was started: the command stands for the commit you saw. "
        "Comment again to evaluate the new head."
    )


def invalid(author: str, problem: str) -> str:
    """`problem` is a CommandError's message: Markdown whose outside text is in code spans."""
    return f"{mention(author)} I could not read that command: {problem}"


def usage(author: str) -> str:
    return f"{mention(author)} usage: {USAGE}"


def not_a_pull_request(author: str) -> str:
    return (
        f"{mention(author)} `/specsnap run` evaluates a pull request and `/specsnap review` "
        "reviews its run; comment on one."
    )


def reviews_not_set_up(author: str) -> str:
    return (
        f"{mention(author)} reviews are not set up where this command was answered: the "
        "SpecSnap App reviews runs from its reviews directory (docs/bot.md)."
    )


def review_refused(author: str, permission: str) -> str:
    return (
        f"Thanks, {mention(author)}! Ratings become part of the run's signed record, so "
        f"reviewing needs write access to the repository (yours is {code(permission)}). "
        "Nothing was recorded."
    )


def no_run_to_review(author: str, number: int) -> str:
    return (
        f"{mention(author)} there is no SpecSnap run to review for pull request {number} yet: "
        "the bot's operator places the run to review in its reviews directory (docs/bot.md)."
    )


def rating_refused(author: str, problem: str) -> str:
    """`problem` is a RuleError's message (SpecSnap's words, the reviewer's login aside)."""
    return f"{mention(author)} that rating was not recorded: {text(problem)}"


def rating_recorded(author: str, kind: str, standing: str, head: str) -> str:
    """`standing` is specsnap.reviewdesk.desk.standing's: it shows no rating until two
    reviewers have rated."""
    what = "agreed rating is" if kind == "agreed" else "ratings are"
    return (
        f"{mention(author)} your {what} recorded (reviews chain head {code(head[:16])}); "
        "the comment that gave them was removed so that no rating shows before both "
        f"reviewers have rated.\n\n{standing}"
    )


def mention(login: str) -> str:
    """`@login` for a GitHub login; anything else is shown, not mentioned."""
    return f"@{login}" if _LOGIN.fullmatch(login) else code(login)
