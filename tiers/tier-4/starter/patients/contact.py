"""Working out where to send a message for a patient."""

from __future__ import annotations

from .errors import PatientValidationError
from .models import ContactPreference, Patient


def contact_address(patient: Patient) -> tuple[ContactPreference, str]:
    """The channel and address to use for ``patient``, following their preference.

    SMS and phone calls go to ``patient.phone``, e-mail to ``patient.email``. Raises
    :class:`PatientValidationError` if the preferred channel has no address on file.
    """
    preference = patient.contact_preference
    address = patient.email if preference is ContactPreference.EMAIL else patient.phone
    if not address:
        raise PatientValidationError(
            f"patient {patient.patient_id} prefers {preference.value} but has no address for it"
        )
    return preference, address
