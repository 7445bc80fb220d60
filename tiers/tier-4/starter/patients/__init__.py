"""Patient records: registration, validation and contact preferences."""

from .contact import contact_address
from .errors import PatientError, PatientNotFoundError, PatientValidationError
from .models import ContactPreference, Patient
from .registry import PatientRegistry
from .validation import (
    SUPPORTED_LANGUAGES,
    normalize_phone,
    validate_email,
    validate_language,
    validate_name,
)

__all__ = [
    "SUPPORTED_LANGUAGES",
    "ContactPreference",
    "Patient",
    "PatientError",
    "PatientNotFoundError",
    "PatientRegistry",
    "PatientValidationError",
    "contact_address",
    "normalize_phone",
    "validate_email",
    "validate_language",
    "validate_name",
]
