from datetime import date

import pytest

from patients import (
    ContactPreference,
    PatientNotFoundError,
    PatientValidationError,
    contact_address,
    normalize_phone,
    validate_email,
)

TODAY = date(2024, 3, 1)


def test_registration_assigns_sequential_ids(registry):
    assert [p.patient_id for p in registry.all()] == ["P0001", "P0002", "P0003"]
    assert registry.get("P0001").phone == "+447700900123"
    assert registry.get("P0002").email == "ben.okafor@example.org"


def test_normalize_phone_strips_separators():
    assert normalize_phone("+44 (20) 7946-0958") == "+442079460958"
    assert normalize_phone("+1 415.555.0100") == "+14155550100"


@pytest.mark.parametrize("raw", ["+44 7700 9001ab", "+44 12", "call me"])
def test_normalize_phone_rejects_garbage(raw):
    with pytest.raises(PatientValidationError):
        normalize_phone(raw)


def test_email_is_validated():
    assert validate_email("  Ana@Clinic.Example ") == "ana@clinic.example"
    with pytest.raises(PatientValidationError):
        validate_email("ana@clinic")


def test_preferred_channel_needs_an_address(registry):
    with pytest.raises(PatientValidationError):
        registry.register(
            "Carl",
            "Berg",
            date(1960, 1, 1),
            phone="+44 7700 900999",
            contact_preference=ContactPreference.EMAIL,
            today=TODAY,
        )


def test_future_birth_date_is_rejected(registry):
    with pytest.raises(PatientValidationError):
        registry.register("Dee", "Nash", date(2024, 6, 1), phone="+447700900111", today=TODAY)


def test_search_is_case_insensitive(registry):
    assert [p.first_name for p in registry.search("gÓm")] == ["Lucía"]
    assert registry.search("   ") == []


def test_update_contact_keeps_patient_reachable(registry):
    updated = registry.update_contact(
        "P0001", email="ana@example.org", contact_preference=ContactPreference.EMAIL
    )
    assert contact_address(updated) == (ContactPreference.EMAIL, "ana@example.org")
    with pytest.raises(PatientValidationError):
        registry.update_contact("P0002", contact_preference=ContactPreference.SMS)
    assert registry.get("P0002").contact_preference is ContactPreference.EMAIL


def test_unknown_patient(registry):
    with pytest.raises(PatientNotFoundError):
        registry.get("P9999")


def test_age_counts_leap_day_birthdays_from_first_of_march(registry):
    lucia = registry.get("P0003")
    assert lucia.age_on(date(2023, 2, 28)) == 34
    assert lucia.age_on(date(2023, 3, 1)) == 35
