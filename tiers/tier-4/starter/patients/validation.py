"""Validation and normalisation of the values a patient record holds."""

from __future__ import annotations

import re
from datetime import date

from .errors import PatientValidationError

#: Languages the clinic can write reminders in.
SUPPORTED_LANGUAGES: tuple[str, ...] = ("en", "es")

_PHONE_SEPARATORS = re.compile(r"[\s\-.()]")
_EMAIL_RE = re.compile(r"^[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(\.[A-Za-z0-9\-]+)+$")
_NAME_RE = re.compile(r"^[^\W\d_]+([ '\-][^\W\d_]+)*$")
_MAX_AGE_YEARS = 130


def normalize_phone(raw: str) -> str:
    """Strip separators from a phone number.

    Spaces, dashes, dots and parentheses are removed; a leading ``+`` is kept. What remains
    must be 7 to 15 digits.

    >>> normalize_phone("+44 (20) 7946-0958")
    '+442079460958'
    """
    compact = _PHONE_SEPARATORS.sub("", raw.strip())
    digits = compact[1:] if compact.startswith("+") else compact
    if not digits.isdigit():
        raise PatientValidationError(f"phone number may only contain digits: {raw!r}")
    if not 7 <= len(digits) <= 15:
        raise PatientValidationError(f"phone number must have 7 to 15 digits: {raw!r}")
    return compact


def validate_email(raw: str) -> str:
    """Check an e-mail address and return it trimmed and lower-cased."""
    address = raw.strip().lower()
    if not _EMAIL_RE.match(address):
        raise PatientValidationError(f"not a valid e-mail address: {raw!r}")
    return address


def validate_name(raw: str, field: str = "name") -> str:
    """Check a first or last name and return it trimmed.

    Letters of any alphabet, joined by single spaces, apostrophes or hyphens.
    """
    name = raw.strip()
    if not name or not _NAME_RE.match(name):
        raise PatientValidationError(f"invalid {field}: {raw!r}")
    return name


def validate_date_of_birth(born: date, today: date) -> date:
    """A date of birth may not lie in the future nor more than 130 years back."""
    if born > today:
        raise PatientValidationError(f"date of birth {born.isoformat()} is in the future")
    if today.year - born.year > _MAX_AGE_YEARS:
        raise PatientValidationError(f"date of birth {born.isoformat()} is implausibly old")
    return born


def validate_language(raw: str) -> str:
    """Check a reminder language code and return it lower-cased."""
    language = raw.strip().lower()
    if language not in SUPPORTED_LANGUAGES:
        raise PatientValidationError(
            f"unsupported language {raw!r}; expected one of {', '.join(SUPPORTED_LANGUAGES)}"
        )
    return language
