"""Request parsing and the mapping of domain errors to error responses."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from money import BillingError, Currency, InvalidAmountError, Money

Payload = Mapping[str, Any]
Response = dict[str, Any]


class RequestError(BillingError):
    """A payload that is missing a field or has one of the wrong type or format."""

    code = "invalid_request"


def handler(method: Callable[..., dict[str, Any]]) -> Callable[..., Response]:
    """Wrap a handler: validate the payload type and turn BillingErrors into error responses.

    Errors that are not :class:`BillingError` are bugs and propagate.
    """

    @functools.wraps(method)
    def wrapper(self: Any, payload: Payload | None = None) -> Response:
        if payload is None:
            payload = {}
        if not isinstance(payload, Mapping):
            return error_response(RequestError("the payload must be an object"))
        try:
            data = method(self, payload)
        except BillingError as exc:
            return error_response(exc)
        return {"ok": True, "data": data}

    return wrapper


def error_response(exc: BillingError) -> Response:
    return {"ok": False, "error": {"code": exc.code, "message": exc.message}}


def require_str(payload: Payload, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RequestError(f"'{key}' is required and must be a non-empty string")
    return value.strip()


def optional_str(payload: Payload, key: str) -> str | None:
    if payload.get(key) is None:
        return None
    return require_str(payload, key)


def parse_date(payload: Payload, key: str) -> date:
    value = require_str(payload, key)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RequestError(f"'{key}' must be an ISO date (YYYY-MM-DD), got {value!r}") from None


def parse_amount(payload: Payload, key: str, currency: Currency) -> Money:
    """A positive amount given as a decimal string, in ``currency``."""
    value = require_str(payload, key)
    try:
        amount = Money.of(value, currency)
    except InvalidAmountError as exc:
        raise RequestError(f"'{key}': {exc.message}") from None
    if not amount.is_positive():
        raise RequestError(f"'{key}' must be positive")
    return amount
