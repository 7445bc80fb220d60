"""Errors raised by :mod:`calendar_core`."""


class CalendarError(ValueError):
    """Invalid calendar input: a malformed time, an impossible range, a bad date."""
