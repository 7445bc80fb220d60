"""CLIN-4: minors register with a guardian, who receives their messages.

Seeded: the age of majority (`minor_age`), the word the new attributes start with
(`guardian_word`: `<word>_name`, `<word>_phone`) and the error's wording (`minor_error`).
"""

import calendar
from datetime import date, timedelta

TODAY = date(2024, 3, 1)


def _guardian(params, name=None, phone=None):
    """Keyword arguments for the guardian fields under this draw's names."""
    word = params["guardian_word"]
    fields = {}
    if name is not None:
        fields[f"{word}_name"] = name
    if phone is not None:
        fields[f"{word}_phone"] = phone
    return fields


def _field(patient, params, which):
    return getattr(patient, f"{params['guardian_word']}_{which}")


def test_minor_needs_both_guardian_fields(subject, registry, params):
    with subject.raises("patients.PatientValidationError") as info:
        registry.register("Mia", "Silva", date(2010, 5, 20), phone="+447700900321", today=TODAY)
    assert info.value.message == params["minor_error"]
    with subject.raises("patients.PatientValidationError") as info:
        registry.register("Mia", "Silva", date(2010, 5, 20), phone="+447700900321",
                          today=TODAY, **_guardian(params, name="Ana Silva"))
    assert info.value.message == params["minor_error"]
    with subject.raises("patients.PatientValidationError") as info:
        registry.register("Mia", "Silva", date(2010, 5, 20), today=TODAY,
                          **_guardian(params, phone="+447700900123"))
    assert info.value.message == params["minor_error"]
    assert len(registry) == 3
    mia = registry.register("Mia", "Silva", date(2010, 5, 20), today=TODAY,
                            **_guardian(params, name=" Ana Silva ", phone="+44 7700 900123"))
    assert mia.patient_id == "P0004"
    assert _field(mia, params, "name") == "Ana Silva"
    assert _field(mia, params, "phone") == "+447700900123"
    assert mia.phone is None


def test_sixteenth_birthday_ends_minority(subject, patients, registry, params):
    """The age of majority is seeded; the test's name is the original draw's."""
    age = params["minor_age"]
    teen = registry.register("Noah", "Reed", date(2024 - age, 3, 1), phone="+447700900654",
                             today=TODAY)
    assert _field(teen, params, "name") is None and _field(teen, params, "phone") is None
    assert teen.is_minor(date(2024, 3, 1)) is False
    assert teen.is_minor(date(2024, 2, 29)) is True
    leap = patients.Patient("P0100", "Leo", "Hart", date(2008, 2, 29), phone="+447700900777")
    year = 2008 + age
    birthday = date(year, 2, 29) if calendar.isleap(year) else date(year, 3, 1)
    assert leap.is_minor(birthday - timedelta(days=1)) is True
    assert leap.is_minor(birthday) is False
    assert leap.is_minor(date(year - 1, 3, 1)) is True
    with subject.raises("patients.PatientValidationError") as info:
        registry.register("Ivy", "Reed", date(2024 - age, 3, 2), phone="+447700900655",
                          today=TODAY)
    assert info.value.message == params["minor_error"]
    assert len(registry) == 4


def test_minor_is_contacted_through_the_guardian(patients, registry, params):
    mia = registry.register("Mia", "Silva", date(2010, 5, 20), phone="+447700900321",
                            today=TODAY,
                            **_guardian(params, name="Ana Silva", phone="+447700900123"))
    sms = patients.ContactPreference.SMS
    assert patients.contact_address(mia, on=date(2024, 3, 1)) == (sms, "+447700900123")
    adult_on = date(2010 + params["minor_age"], 5, 20)
    assert patients.contact_address(mia, on=adult_on - timedelta(days=1)) == (
        sms, "+447700900123")
    assert patients.contact_address(mia, on=adult_on) == (sms, "+447700900321")
    email = patients.ContactPreference.EMAIL
    registry.update_contact(mia.patient_id, email="mia@example.org", contact_preference=email)
    assert patients.contact_address(registry.get(mia.patient_id), on=date(2024, 3, 1)) == (
        email, "mia@example.org")


def test_adults_are_never_contacted_through_a_guardian(subject, patients, registry, params):
    phone = patients.ContactPreference.PHONE
    adult = registry.register("Omar", "Haddad", date(1950, 6, 1), phone="+447700900888",
                              contact_preference=phone, today=TODAY,
                              **_guardian(params, name="Sara Haddad", phone="+447700900889"))
    assert _field(adult, params, "phone") == "+447700900889"
    assert patients.contact_address(adult, on=date(2024, 3, 1)) == (phone, "+447700900888")
    for bad in ({"name": "R2D2", "phone": "+447700900889"}, {"name": "Sara", "phone": "0770"}):
        with subject.raises("patients.PatientValidationError"):
            registry.register("Omar", "Haddad", date(1950, 6, 1), phone="+447700900888",
                              today=TODAY, **_guardian(params, **bad))
    assert len(registry) == 4


def test_date_of_birth_as_text(subject, registry, params):
    """The registration form sends `YYYY-MM-DD` text; the patients package must read it
    itself (calendar_core's parser is out of its reach)."""
    mia = registry.register("Mia", "Silva", " 2010-05-20 ", today=TODAY,
                            **_guardian(params, name="Ana Silva", phone="+447700900123"))
    assert mia.date_of_birth == date(2010, 5, 20)
    assert mia.is_minor(TODAY) is True
    omar = registry.register("Omar", "Haddad", "1950-06-01", phone="+447700900888", today=TODAY)
    assert omar.date_of_birth == date(1950, 6, 1)
    for text in ("2010-5-20", "20/05/2010", "2010-02-30", "2010-05-20 09:00", ""):
        with subject.raises("patients.PatientValidationError"):
            registry.register("Ivy", "Reed", text, phone="+447700900655", today=TODAY,
                              **_guardian(params, name="Ana Silva", phone="+447700900123"))
    assert len(registry) == 5
