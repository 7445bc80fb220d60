"""Errors raised by :mod:`patients`."""


class PatientError(Exception):
    """Base class of every error raised by the patients package."""


class PatientValidationError(PatientError, ValueError):
    """A patient record, or a value for one, is invalid."""


class PatientNotFoundError(PatientError, LookupError):
    """No patient is registered under the given id."""
