"""The pound's activity sections: counted by local day, a year earlier beside, in SQL.

March 2026 in Chicago: daylight time starts Sun 8 Mar, so the month starts at
06:00 UTC and ends at 05:00 UTC on 1 April. Records sit just inside and just
outside both edges.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event

from fieldops import modules
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.dispositions import record_death, record_escape
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.pound_activity import _median, activity

CHICAGO = ZoneInfo("America/Chicago")
MARCH = (date(2026, 3, 1), date(2026, 3, 31))


def local(y: int, m: int, d: int, hh: int, mm: int = 0) -> datetime:
    return datetime.combine(date(y, m, d), time(hh, mm), CHICAGO).astimezone(UTC)


@pytest.fixture
def animal(db, operator, owner, today):
    def _animal(name: str, species: str = "dog"):
        return create_animal(
            db,
            operator,
            AnimalInput(
                species=species,
                species_detail="ferret" if species == "other" else "",
                name=name,
                owner_id=owner.id,
            ),
            today=today,
        )

    return _animal


def figures(sections, title):
    section = next(s for s in sections if s.title.startswith(title))
    return {f.label: (f.value, f.year_earlier) for f in section.figures}


@pytest.fixture
def march(db, operator, profile, animal, impound):
    """Impoundments around March 2026 and March 2025 (see the module docstring)."""
    rex, tom, kit, late, mia, old = (
        animal("Rex"),
        animal("Tom", "cat"),
        animal("Kit", "cat"),
        animal("Late"),
        animal("Mia", "other"),
        animal("Old"),
    )
    a = impound(rex.id, local(2026, 3, 2, 10))
    # 23:30 CDT on 31 March is 04:30 UTC on 1 April: a March disposition, 29 days held.
    record_escape(db, operator, a.id, profile, at=local(2026, 3, 31, 23, 30), notes="gate")
    # Impounded in February, disposed of at 00:30 on 1 March: a March disposition, 2 days.
    b = impound(kit.id, local(2026, 2, 27, 9), reason="bite", bit_person=True)
    record_death(db, operator, b.id, profile, at=local(2026, 3, 1, 0, 30), notes="ill")
    # Disposed of at 23:30 on 28 February (05:30 UTC on 1 March): not March.
    c = impound(mia.id, local(2026, 2, 20, 9), reason="seizure")
    record_escape(db, operator, c.id, profile, at=local(2026, 2, 28, 23, 30), notes="fence")
    # Impounded twice within 60 days: the second is a repeat impoundment. Out at 00:30
    # CDT on 11 March (05:30 UTC, 23:30 on the 10th in standard time): 8 days held.
    d = impound(tom.id, local(2026, 3, 3, 8))
    record_escape(db, operator, d.id, profile, at=local(2026, 3, 11, 0, 30), notes="door")
    impound(tom.id, local(2026, 3, 20, 8))
    impound(late.id, local(2026, 3, 31, 23, 50))  # in March, still in custody
    impound(animal("April").id, local(2026, 4, 1, 0, 15))  # 05:15 UTC: April
    # Paid at 23:45 CDT on 31 March (04:45 UTC on 1 April): collected in March.
    record_payment(
        db,
        operator,
        a.id,
        PaymentInput(
            (LineInput("impound", "40.00"), LineInput("boarding", "15.00")),
            "cash",
            "R-1",
            paid_at=local(2026, 3, 31, 23, 45),
        ),
        profile,
    )
    record_payment(
        db,
        operator,
        c.id,
        PaymentInput(
            (LineInput("impound", "25.00"),), "cash", "R-2", paid_at=local(2026, 2, 28, 23)
        ),
        profile,
    )
    # A year earlier: one dog, at large, 10 days.
    e = impound(old.id, local(2025, 3, 14, 12))
    record_escape(db, operator, e.id, profile, at=local(2025, 3, 24, 12), notes="leash")
    record_payment(
        db,
        operator,
        e.id,
        PaymentInput(
            (LineInput("impound", "40.00"),), "card", "R-0", paid_at=local(2025, 3, 20, 9)
        ),
        profile,
    )


def test_counts_by_local_day_beside_a_year_earlier(db, march):
    sections = activity(db, *MARCH)
    glance = figures(sections, "Pound: the period at a glance")
    assert glance["Animals impounded"] == (4, 1)  # Rex, Tom twice, Late; Old a year earlier
    assert glance["Repeat impoundments (again within 60 days)"] == (1, 0)
    assert glance["Animals disposed of"] == (3, 1)  # Rex, Kit, Tom's first; Old
    assert glance["Fees collected"] == (Decimal("55.00"), Decimal("40.00"))
    assert figures(sections, "Intakes by species") == {
        "Dogs": (2, 1),
        "Cats": (2, 0),
        "Other animals": (0, 0),
    }
    assert figures(sections, "Intakes by reason")["At large"] == (4, 1)
    assert figures(sections, "Intakes by reason")["Bite"] == (0, 0)  # Kit came in February
    kinds = figures(sections, "Dispositions by kind")
    assert kinds["Escaped"] == (2, 1) and kinds["Died"] == (1, 0) and kinds["Adopted"] == (0, 0)
    held = figures(sections, "Days held")
    assert held["Median days held"] == (8, 10)  # of 29, 2 and 8 days
    assert held["Shortest stay (days)"] == (2, 10)
    assert held["Longest stay (days)"] == (29, 10)
    fees = figures(sections, "Fees collected at the pound, by kind")
    assert fees["Impound fee"] == (Decimal("40.00"), Decimal("40.00"))
    assert fees["Boarding"] == (Decimal("15.00"), Decimal("0.00"))
    assert next(s for s in sections if s.title == "Intakes by species").chart


def test_an_empty_period_has_zeros_and_no_days_held(db):
    sections = activity(db, *MARCH)
    assert figures(sections, "Pound: the period at a glance")["Animals impounded"] == (0, 0)
    assert figures(sections, "Days held")["Median days held"] == (None, None)


def test_through_the_seam_the_pound_gives_its_sections(db, march):
    titles = [s.title for s in modules.activity_sections(db, *MARCH)]
    assert "Intakes by species" in titles and "Fees collected at the pound, by kind" in titles


def test_the_statement_count_does_not_grow_with_the_period(db, march):
    seen: list[str] = []

    def count(conn, cursor, statement, *args):
        seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        activity(db, *MARCH)
        month = len(seen)
        seen.clear()
        year = activity(db, date(2025, 4, 1), date(2026, 3, 31))
        assert len(seen) == month <= 4, seen
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    # The year (across both changes of clock): March's three and Mia's in February.
    assert figures(year, "Pound: the period at a glance")["Animals disposed of"] == (4, 1)


def test_the_median_of_an_even_count_is_between_the_middle_two():
    assert _median({1: 1, 4: 1}) == 2.5
    assert _median({0: 3, 7: 1}) == 0
    assert _median({}) is None


def test_an_older_sqlite_without_unixepoch_counts_the_same(db, march, monkeypatch):
    if db.dialect != "sqlite":
        pytest.skip("SQLite only")
    import sqlite3

    expected = figures(activity(db, *MARCH), "Days held")
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 37, 2))
    assert (
        figures(activity(db, *MARCH), "Days held")
        == expected
        == {
            "Median days held": (8, 10),
            "Shortest stay (days)": (2, 10),
            "Longest stay (days)": (29, 10),
        }
    )
