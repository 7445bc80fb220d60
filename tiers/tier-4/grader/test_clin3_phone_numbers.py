"""CLIN-3: phone numbers in international (E.164) format."""

from datetime import date

import pytest

from patients import PatientValidationError, normalize_phone

TODAY = date(2024, 3, 1)


def test_numbers_are_converted_to_international_form():
    assert normalize_phone("07700 900123") == "+447700900123"
    assert normalize_phone("(020) 7946 0958") == "+442079460958"
    assert normalize_phone("0044 20 7946 0958") == "+442079460958"
    assert normalize_phone("0034-612.345.678") == "+34612345678"
    assert normalize_phone("+1 (415) 555-0100") == "+14155550100"


def test_invalid_numbers_are_rejected():
    for raw in ["7700 900123", "44 7700 900123", "0770 090", "+44 7700 901", "",
                "0044 1234 5678 9012 3456", "07700/900123", "07700 9001ab"]:
        with pytest.raises(PatientValidationError):
            normalize_phone(raw)


def test_digit_count_bounds_are_inclusive():
    assert normalize_phone("0 123456789") == "+44123456789"
    assert normalize_phone("+1234567890") == "+1234567890"
    assert normalize_phone("00 123 456 789 012 345") == "+123456789012345"
    with pytest.raises(PatientValidationError):
        normalize_phone("+123456789")
    with pytest.raises(PatientValidationError):
        normalize_phone("07700 900123 45678")


def test_registry_stores_and_finds_normalised_numbers(registry):
    kim = registry.register("Kim", "Park", date(1992, 7, 14), phone="07700 900456", today=TODAY)
    assert kim.phone == "+447700900456"
    registry.update_contact("P0003", phone="0034 612 345 000")
    assert registry.get("P0003").phone == "+34612345000"
    assert registry.find_by_phone("+44 7700-900456") == [kim]
    joon = registry.register("Joon", "Park", date(1990, 1, 9), phone="+447700900456",
                             email="park.family@example.org",
                             contact_preference="email", today=TODAY)
    assert registry.find_by_phone("(07700) 900 456") == [kim, joon]
    assert registry.find_by_phone("07700 900123") == [registry.get("P0001")]
    assert registry.find_by_phone("07700 900999") == []
    with pytest.raises(PatientValidationError):
        registry.find_by_phone("not a number")
