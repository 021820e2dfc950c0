"""The quarantines list's page in one statement, its rows built as they are read (issue 14).

The corrected bite times of the page's open quarantines used to be a second statement; they
are read with the page now, and each row is built when first read. The cells must be the
ones the old path gave: the day of the period through the rules, from the latest corrected
bite time, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from quarantine_support import PROFILE, bite_input, days_ago, local_today

from fieldops.services import quarantine as qs
from fieldops.services.listing import Page, Rows
from fieldops.services.quarantine.listing import QuarantineFilter, day_labels


@pytest.fixture
def cases(db, officer, supervisor, rex):
    """Three open quarantines (one bite time corrected twice, one once, one never) and a
    closed one."""
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    made = [
        qs.report_bite(
            db, officer, bite_input(days_ago(n), animal_id=rex.id, clinic_id=clinic.id), PROFILE
        )
        for n in (3, 5, 7, 2)
    ]
    twice, once, _never, closed = made

    def retime(r, moment):
        qs.correct_record(
            db,
            supervisor,
            r.bite_report_id,
            "bite_report",
            r.bite_report_id,
            "bitten_at",
            moment.astimezone(UTC).isoformat(),
            "mistyped",
            PROFILE,
        )

    retime(twice, days_ago(4))
    retime(twice, days_ago(6))  # the latest correction is the one in force
    retime(once, days_ago(8))
    qs.record_escape(db, officer, closed.quarantine_id, days_ago(1), PROFILE)
    return made


def test_each_open_row_shows_the_day_of_its_latest_corrected_bite_time(db, cases, selects):
    today = local_today()
    ids = tuple(r.quarantine_id for r in cases)
    expected = day_labels(db, ids, today, PROFILE)  # the old path: bite times on their own
    views = {i: qs.get_quarantine(db, i, PROFILE, today) for i in ids}
    selects.clear()
    page = qs.quarantine_page(db, QuarantineFilter(show="all"), today, PROFILE, 0, 100)
    assert len(selects) == 1  # the page, its columns and its corrected bite times
    rows = {r.id: r for r in page.rows}
    assert set(rows) == set(ids)
    assert views[cases[3].quarantine_id].status != "open"
    for i in ids:
        if views[i].status == "open":
            assert rows[i].day == expected[i] == views[i].day_label
        else:
            assert rows[i].day == ""
    twice, once, never = (rows[r.quarantine_id].day for r in cases[:3])
    # Bitten 6, 8 and 7 days ago as corrected (the latest correction in force).
    assert (twice, once, never) == ("day 6 of 10", "day 8 of 10", "day 7 of 10")


def test_rows_are_built_only_when_read_and_read_the_same_every_time(db, cases):
    page = qs.quarantine_page(db, QuarantineFilter(show="all"), local_today(), PROFILE, 0, 100)
    assert isinstance(page.rows, Rows)
    first = page.rows[0]
    assert page.rows[0] is first  # built once, kept
    assert tuple(page.rows) == page.rows and len(tuple(page.rows)) == len(cases)
    later = qs.quarantine_page(db, QuarantineFilter(show="all"), local_today(), PROFILE, 0, 100)
    assert later.rows == page.rows  # the same cells, built on read or all at once


def test_a_page_of_rows_builds_none_until_one_is_read():
    built: list[int] = []

    def build(raw: int) -> str:
        built.append(raw)
        return f"row {raw}"

    page = Page(0, Rows((1, 2, 3), build))
    assert len(page.rows) == 3 and built == []
    assert page.rows[1] == "row 2" and built == [2]
    assert page.rows[1:] == ("row 2", "row 3") and built == [2, 3]
    assert page.rows == ("row 1", "row 2", "row 3")
    assert Page(0, Rows((), build)).rows == ()


def test_a_day_later_the_same_page_counts_one_day_more(db, cases):
    today = local_today()
    f = QuarantineFilter(show="open")
    now = {r.id: r.day for r in qs.quarantine_page(db, f, today, PROFILE, 0, 100).rows}
    later = qs.quarantine_page(db, f, today + timedelta(days=1), PROFILE, 0, 100).rows
    for r in later:
        n, of = now[r.id].split()[1], now[r.id].split()[3]
        if int(n) < int(of):
            assert r.day == f"day {int(n) + 1} of {of}"
