"""What every subcommand shares: expected failures as one clear message and an exit code
(0 ran and passed · 1 ran and did not pass · 2 bad usage or input · 3 infrastructure failure),
tracebacks only with --debug, and KEY=VALUE options."""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Callable
from typing import Any

import click

from specsnap.errors import SpecSnapError

DEBUG = {"on": False}


def fail(exc: BaseException) -> None:
    if DEBUG["on"]:
        traceback.print_exception(exc)
    click.secho(f"specsnap: {exc}", fg="red", err=True)
    code = exc.exit_code if isinstance(exc, SpecSnapError) else 3
    sys.exit(code)


def guard(func: Callable[..., Any]) -> Callable[..., Any]:
    """Expected failures print one clear message and exit with their code (no traceback)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except SpecSnapError as exc:
            fail(exc)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)

    return wrapper


def parse_pairs(pairs: tuple[str, ...], what: str) -> dict[str, str]:
    result = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint=what)
        result[key] = value
    return result
