"""CLIN-2: working hours from a one-line text.

Seeded: the methods' names (`from_<word>`, `to_<word>`), the clause separator and the most
ranges a day may have.
"""

from datetime import date, datetime, time

import pytest


def _from(calendar_core, params, text):
    return getattr(calendar_core.WorkingHours, f"from_{params['spec_word']}")(text)


def _to(hours, params):
    return getattr(hours, f"to_{params['spec_word']}")()


def _week(hours):
    """The weekly schedule as plain data (remote objects cannot be compared in the judge)."""
    return [hours.ranges_for_weekday(day) for day in range(7)]


def test_from_spec_parses_clauses_and_ranges(calendar_core, params):
    sep, join = params["clause_sep"], params["clause_join"]
    hours = _from(calendar_core, params, f"Mon-Fri 08:00-12:00,13:00-17:00{join}Sat 09:00-12:00")
    assert _week(hours) == _week(calendar_core.WorkingHours.standard())
    relaxed = _from(
        calendar_core, params, f"  tue  07:30-11:00 , 12:00-12:30 {sep}SUN 10:00-11:00 "
    )
    assert relaxed.ranges_for_weekday(1) == (
        (time(7, 30), time(11, 0)),
        (time(12, 0), time(12, 30)),
    )
    assert relaxed.ranges_for_weekday(6) == ((time(10, 0), time(11, 0)),)
    assert relaxed.is_open_on(date(2024, 3, 4)) is False  # Monday not mentioned
    assert relaxed.is_open_at(datetime(2024, 3, 10, 10, 30)) is True
    touching = _from(calendar_core, params, "Wed 08:00-12:00,12:00-13:00")
    assert touching.is_open_at(datetime(2024, 3, 6, 12, 0)) is True
    shortest = _from(calendar_core, params, f"Thu 08:00-08:10{sep} Fri 17:00-17:10")
    assert shortest.ranges_for_weekday(3) == ((time(8, 0), time(8, 10)),)
    assert shortest.ranges_for_weekday(4) == ((time(17, 0), time(17, 10)),)


def test_empty_spec_means_closed_all_week(calendar_core, params):
    hours = _from(calendar_core, params, "   ")
    assert _week(hours) == [()] * 7
    assert _to(hours, params) == ""


def test_to_spec_is_canonical(calendar_core, params):
    sep, join = params["clause_sep"], params["clause_join"]
    assert _to(calendar_core.WorkingHours.standard(), params) == (
        f"Mon-Fri 08:00-12:00,13:00-17:00{join}Sat 09:00-12:00"
    )
    mixed = _from(
        calendar_core,
        params,
        f"Sun 09:00-10:00{sep} Sat 09:00-10:00{sep} Wed 13:00-17:00,08:00-12:00"
        f"{sep} Mon 08:00-12:00,13:00-17:00",
    )
    assert _to(mixed, params) == (
        f"Mon 08:00-12:00,13:00-17:00{join}Wed 08:00-12:00,13:00-17:00{join}Sat-Sun 09:00-10:00"
    )
    hours = calendar_core.WorkingHours({2: [(time(7, 0), time(9, 30))],
                                        3: [(time(7, 0), time(9, 30))],
                                        4: [(time(7, 0), time(9, 0))]})
    assert _to(hours, params) == f"Wed-Thu 07:00-09:30{join}Fri 07:00-09:00"
    assert _week(_from(calendar_core, params, _to(hours, params))) == _week(hours)


def test_a_day_has_at_most_the_drawn_number_of_ranges(subject, calendar_core, params):
    most = params["max_day_ranges"]
    ranges = [(time(8 + i, 0), time(8 + i, 30)) for i in range(most + 1)]
    text = ",".join(f"{a:%H:%M}-{b:%H:%M}" for a, b in ranges)
    sep, allowed = params["clause_sep"], text.rsplit(",", 1)[0]
    full = _from(calendar_core, params, f"Mon-Tue {allowed}{sep}Wed 08:00-09:00")
    assert full.ranges_for_weekday(0) == tuple(ranges[:most])
    assert full.ranges_for_weekday(1) == tuple(ranges[:most])
    assert _to(full, params).startswith("Mon-Tue 08:00-08:30,")
    with subject.raises("calendar_core.CalendarError"):
        _from(calendar_core, params, f"Wed 08:00-09:00{sep}Mon-Tue {text}")


@pytest.mark.parametrize(
    "spec",
    [
        "Mon-Fry 08:00-12:00",
        "Fri-Mon 08:00-12:00",
        "Mon 8:00-12:00",
        "Mon 12:00-12:00",
        "Mon 08:00-12:00,11:00-13:00",
        "Mon 08:00-12:00{sep} Mon-Tue 13:00-17:00",
        "Mon",
        "Mon 08:00",
        "Mon 08:00-08:09",
    ],
    ids=["unknown-day", "backwards-days", "short-time", "empty-range", "overlap",
         "day-twice", "no-ranges", "no-end", "too-short"],
)
def test_invalid_specs_are_rejected(subject, calendar_core, params, spec):
    parse = getattr(calendar_core.WorkingHours, f"from_{params['spec_word']}")
    with subject.raises("calendar_core.CalendarError"):
        parse(spec.format(sep=params["clause_sep"]))
