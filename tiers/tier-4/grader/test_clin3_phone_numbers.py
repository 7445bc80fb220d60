"""CLIN-3: phone numbers in international (E.164) format.

Seeded: the country code of national numbers, the fewest digits, the registry method's name.
"""

from datetime import date

TODAY = date(2024, 3, 1)


def _national(params, digits):
    """What a national number (leading 0, then `digits`) becomes for this draw."""
    return f"+{params['national_cc']}{digits}"


def test_numbers_are_converted_to_international_form(patients, params):
    normalize = patients.normalize_phone
    assert normalize(params["phone_mobile_raw"]) == params["phone_mobile_e164"]
    assert normalize(params["phone_landline_raw"]) == params["phone_landline_e164"]
    assert normalize("07700 900123") == _national(params, "7700900123")
    assert normalize("(020) 7946 0958") == _national(params, "2079460958")
    assert normalize("0044 20 7946 0958") == "+442079460958"
    assert normalize("0034-612.345.678") == "+34612345678"
    assert normalize("+1 (415) 555-0100") == "+14155550100"


def test_invalid_numbers_are_rejected(subject, patients):
    """Arabic-Indic and full-width digits are digits to Python, but not to the SMS gateway."""
    for raw in ["7700 900123", "44 7700 900123", "0770 9", "+44 7700 9", "",
                "0044 1234 5678 9012 3456", "07700/900123", "07700 9001ab",
                "+44 \u0667\u0667\u0660\u0660 \u0669\u0660\u0660\u0661\u0662\u0663",
                "\uff10\uff17\uff17\uff10\uff10 \uff19\uff10\uff10\uff11\uff12\uff13",
                "+44 7700 90012\u0663"]:
        with subject.raises("patients.PatientValidationError"):
            patients.normalize_phone(raw)


def test_digit_count_bounds_are_inclusive(subject, patients, params):
    shortest = params["phone_min_digits"]
    digits = "123456789012345"
    assert patients.normalize_phone(params["phone_min_ok"]) == params["phone_min_ok"]
    assert patients.normalize_phone("+" + digits[:shortest]) == "+" + digits[:shortest]
    national = digits[: shortest - len(params["national_cc"])]
    assert patients.normalize_phone("0 " + national) == _national(params, national)
    assert patients.normalize_phone("00 123 456 789 012 345") == "+123456789012345"
    for too_short in (params["phone_min_short"], "0" + national[:-1]):
        with subject.raises("patients.PatientValidationError"):
            patients.normalize_phone(too_short)


def test_sixteen_digits_are_too_many(subject, patients, params):
    fifteen = "123456789012345"
    assert patients.normalize_phone("+" + fifteen) == "+" + fifteen
    national = fifteen[len(params["national_cc"]):]
    assert patients.normalize_phone("0" + national) == _national(params, national)
    for raw in ("+" + fifteen + "6", "00" + fifteen + "6", "0" + national + "6",
                "+1 234 567 890 123 456"):
        with subject.raises("patients.PatientValidationError"):
            patients.normalize_phone(raw)


def test_registry_stores_and_finds_normalised_numbers(subject, registry, params):
    find = getattr(registry, params["phone_lookup"])
    kim = registry.register("Kim", "Park", date(1992, 7, 14), phone="07700 900456", today=TODAY)
    assert kim.phone == _national(params, "7700900456")
    registry.update_contact("P0003", phone="0034 612 345 000")
    assert registry.get("P0003").phone == "+34612345000"
    assert [p.patient_id for p in find("0 7700-900456")] == [kim.patient_id]
    joon = registry.register("Joon", "Park", date(1990, 1, 9),
                             phone=_national(params, "7700900456"),
                             email="park.family@example.org",
                             contact_preference="email", today=TODAY)
    assert [p.patient_id for p in find("(07700) 900 456")] == [kim.patient_id, joon.patient_id]
    assert [p.patient_id for p in find("+44 7700 900123")] == ["P0001"]
    assert find("07700 900999") == []
    with subject.raises("patients.PatientValidationError"):
        find("not a number")
