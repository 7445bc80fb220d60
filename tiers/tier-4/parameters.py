"""Values derived from tier 4's seeded draw: worked examples and formats the sprint shows.

`derive(values)` gets the drawn values (tier.yaml `params`) and returns what the sprint text, the
amendments, the reference patches and the hidden tests use beside them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

# CLIN-1: how the observed label follows the holiday's name.
OBSERVED_STYLES = {"paren": " ({})", "bracket": " [{}]", "dash": " - {}", "comma": ", {}"}

# CLIN-2: how each clause separator is written between clauses in the canonical text.
CLAUSE_JOINS = {";": "; ", "|": " | ", "/": " / ", "+": " + ", "&": " & "}

# CLIN-3: national numbers of the clinic's country, as reception types them, by country code:
# (country, mobile as typed, landline as typed).
NATIONAL_EXAMPLES = {
    "44": ("UK", "07700 900123", "(020) 7946 0958"),
    "353": ("Irish", "087 123 4567", "(01) 234 5678"),
    "31": ("Dutch", "06 1234 5678", "(020) 123 4567"),
    "33": ("French", "06 12 34 56 78", "01 23 45 67 89"),
    "49": ("German", "0151 2345 6789", "(030) 1234 5678"),
}

# CLIN-4: the message of the error for a minor registered without a guardian. The draw is a
# key that no sprint text uses as a word, so Stage II's controls never read one from the text.
MINOR_MESSAGES = {
    "wording-1": "patients under {age} need a {word} name and phone number",
    "wording-2": "a {word} name and phone number are required under the age of {age}",
    "wording-3": "{word} details missing: the patient is under {age}",
    "wording-4": "minor (under {age}): register a {word} with name and phone",
}


def derive(values: dict) -> dict:
    derived: dict = {}
    derived["observed_suffix"] = OBSERVED_STYLES[values["observed_style"]].format(
        values["observed_label"]
    )
    derived["clause_join"] = CLAUSE_JOINS[values["clause_sep"]]
    derived.update(_phones(values))
    derived.update(_minors(values))
    derived.update(_transfer_gap(values))
    derived.update(_quiet_hours(values))
    return derived


def _phones(values: dict) -> dict:
    country, mobile, landline = NATIONAL_EXAMPLES[values["national_cc"]]
    national = values["national_cc"]
    digits = "1234567890123"
    shortest = values["phone_min_digits"]
    return {
        "national_country": country,
        "phone_mobile_raw": mobile,
        "phone_mobile_e164": "+" + national + _digits(mobile)[1:],
        "phone_landline_raw": landline,
        "phone_landline_e164": "+" + national + _digits(landline)[1:],
        "phone_min_ok": "+" + digits[:shortest],
        "phone_min_short": "+" + digits[: shortest - 1],
    }


def _digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def _minors(values: dict) -> dict:
    age = values["minor_age"]
    message = MINOR_MESSAGES[values["minor_message"]]
    return {
        "minor_error": message.format(age=age, word=values["guardian_word"]),
        "minor_example_born": f"{2024 - age}-03-01",
        "minor_example_eve": "2024-02-29",
        "minor_example_day": "2024-03-01",
    }


def _transfer_gap(values: dict) -> dict:
    # Amendment A2's example: a 10-minute blood test at 08:40, then a consultation elsewhere.
    blood_end = datetime(2024, 3, 4, 8, 50)
    gap = timedelta(minutes=values["transfer_gap_min"])
    return {
        "gap_example_ok": (blood_end + gap).strftime("%H:%M"),
        "gap_example_too_early": (blood_end + gap - timedelta(minutes=5)).strftime("%H:%M"),
    }


def _quiet_hours(values: dict) -> dict:
    start, end = values["quiet_start_h"], values["quiet_end_h"]
    evening = start - 1
    # The worked example: a 09:00 appointment on Wednesday 2024-03-06.
    appointment = datetime(2024, 3, 6, 9, 0)
    first = appointment - timedelta(hours=values["reminder_first_h"])
    last = appointment - timedelta(hours=values["reminder_last_h"])
    if last.hour < end:
        last = datetime(2024, 3, 5, evening, 0)
    return {
        "quiet_start": f"{start:02d}:00",
        "quiet_end": f"{end:02d}:00",
        "quiet_evening": f"{evening:02d}:00",
        "quiet_evening_h": evening,
        "quiet_last_open": f"{start - 1:02d}:59",
        "reminder_example_first": first.strftime("%Y-%m-%d %H:%M"),
        "reminder_example_last": last.strftime("%Y-%m-%d %H:%M"),
    }
