"""CLIN-4: minors register with a guardian, who receives their messages."""

from datetime import date

import pytest

from patients import ContactPreference, Patient, PatientValidationError, contact_address

TODAY = date(2024, 3, 1)


def test_minor_needs_both_guardian_fields(registry):
    with pytest.raises(PatientValidationError):
        registry.register("Mia", "Silva", date(2010, 5, 20), phone="+447700900321", today=TODAY)
    with pytest.raises(PatientValidationError):
        registry.register("Mia", "Silva", date(2010, 5, 20), phone="+447700900321",
                          guardian_name="Ana Silva", today=TODAY)
    assert len(registry) == 3
    mia = registry.register("Mia", "Silva", date(2010, 5, 20), guardian_name=" Ana Silva ",
                            guardian_phone="+44 7700 900123", today=TODAY)
    assert mia.patient_id == "P0004"
    assert mia.guardian_name == "Ana Silva"
    assert mia.guardian_phone == "+447700900123"
    assert mia.phone is None


def test_sixteenth_birthday_ends_minority(registry):
    teen = registry.register("Noah", "Reed", date(2008, 3, 1), phone="+447700900654",
                             today=TODAY)
    assert teen.guardian_name is None and teen.guardian_phone is None
    assert not teen.is_minor(date(2024, 3, 1))
    assert teen.is_minor(date(2024, 2, 29))
    leap = Patient("P0100", "Leo", "Hart", date(2008, 2, 29), phone="+447700900777")
    assert leap.is_minor(date(2024, 2, 28))
    assert not leap.is_minor(date(2024, 2, 29))
    assert leap.is_minor(date(2023, 3, 1))
    with pytest.raises(PatientValidationError):
        registry.register("Ivy", "Reed", date(2008, 3, 2), phone="+447700900655", today=TODAY)


def test_minor_is_contacted_through_the_guardian(registry):
    mia = registry.register("Mia", "Silva", date(2010, 5, 20), phone="+447700900321",
                            guardian_name="Ana Silva", guardian_phone="+447700900123",
                            today=TODAY)
    assert contact_address(mia, on=date(2024, 3, 1)) == (ContactPreference.SMS, "+447700900123")
    assert contact_address(mia, on=date(2026, 5, 20)) == (ContactPreference.SMS, "+447700900321")
    registry.update_contact(mia.patient_id, email="mia@example.org",
                            contact_preference=ContactPreference.EMAIL)
    assert contact_address(registry.get(mia.patient_id), on=date(2024, 3, 1)) == (
        ContactPreference.EMAIL, "mia@example.org")


def test_adults_are_never_contacted_through_a_guardian(registry):
    adult = registry.register("Omar", "Haddad", date(1950, 6, 1), phone="+447700900888",
                              contact_preference=ContactPreference.PHONE,
                              guardian_name="Sara Haddad", guardian_phone="+447700900889",
                              today=TODAY)
    assert adult.guardian_phone == "+447700900889"
    assert contact_address(adult, on=date(2024, 3, 1)) == (
        ContactPreference.PHONE, "+447700900888")
