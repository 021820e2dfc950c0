"""The activity summary report: demo data in, the figures a supervisor checks out.

The counts are worked out here from the demo database's records one by one, in
Python, and must match what the report printed and listed for CSV.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from accounts_support import enrol
from sqlalchemy import select

from fieldops import modules
from fieldops.db.cancel import Cancelled
from fieldops.db.models import Animal, Impoundment, Payment, PaymentLine
from fieldops.demo import fill
from fieldops.errors import ValidationError
from fieldops.modules import ActivityFigure, ActivitySection, Module, ReportRequest
from fieldops.reports.activity import change_text, period_name, value_text
from fieldops.rules import Profile
from fieldops.services.context import Actor
from fieldops.services.summary import COLUMNS
from tests.reports.conftest import TRICKY_NAME, pages_text
from tests.support import images_besides_the_letterhead

YEAR = (date(2026, 1, 1), date(2026, 12, 31))
PRINTED_AT = datetime(2026, 12, 1, 15, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, sqlite_template):
    import shutil

    from fieldops.db.engine import Database

    path = tmp_path_factory.mktemp("summary") / "demo.db"
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    # The demo is written by a supervisor (pound and officer work; issue 12's roles).
    admin = enrol(db, Actor("sam", "supervisor", "Sam Supervisor"))
    fill(db, admin, seed=3, people=60, anchor=date(2026, 11, 30))
    fill(db, admin, seed=4, people=60, anchor=date(2025, 11, 20))  # the year before
    yield db
    db.dispose()


def request(db, start=YEAR[0], end=YEAR[1], **kw):
    return ReportRequest(
        db, start, end, Profile.default(), PRINTED_AT, kw.pop("by", "Sam Supervisor"), **kw
    )


def build(req):
    kind = modules.report_kind("activity-summary")
    assert kind is not None
    return kind.build(req)


def expected(db, start, end):
    """The demo's figures counted record by record, by local date."""
    tz = Profile.default().timezone
    with db.read() as s:
        imps = s.execute(
            select(
                Impoundment.custody_day,
                Animal.species,
                Impoundment.disposition_kind,
                Impoundment.disposition_at,
                Impoundment.repeat_of_id,
            ).join(Animal, Animal.id == Impoundment.animal_id)
        ).all()
        lines = s.execute(
            select(Payment.paid_at, PaymentLine.kind, PaymentLine.amount).join(
                Payment, Payment.id == PaymentLine.payment_id
            )
        ).all()
    intakes = [i for i in imps if start <= i.custody_day <= end]
    disposed = [
        i
        for i in imps
        if i.disposition_at and start <= i.disposition_at.astimezone(tz).date() <= end
    ]
    fees: Counter[str] = Counter()
    for paid_at, kind, amount in lines:
        if start <= paid_at.astimezone(tz).date() <= end:
            fees[kind] += amount
    return {
        "intakes": len(intakes),
        "repeats": sum(1 for i in intakes if i.repeat_of_id is not None),
        "species": Counter(i.species for i in intakes),
        "kinds": Counter(i.disposition_kind for i in disposed),
        "held": sorted(
            (i.disposition_at.astimezone(tz).date() - i.custody_day).days for i in disposed
        ),
        "fees": fees,
    }


def row(out, section, label):
    return next(r for r in out.table.rows if r[0].startswith(section) and r[1] == label)


def test_the_summary_prints_the_demo_figures_beside_a_year_earlier(demo_db):
    out = build(request(demo_db))
    now, before = expected(demo_db, *YEAR), expected(demo_db, date(2025, 1, 1), date(2025, 12, 31))
    assert now["intakes"] and before["intakes"]  # both years have records to compare
    assert out.table.columns == COLUMNS
    glance = "Pound: the period at a glance"
    assert row(out, glance, "Animals impounded")[2:] == (
        str(now["intakes"]),
        str(before["intakes"]),
    )
    assert row(out, glance, "Repeat impoundments (again within 60 days)")[2:] == (
        str(now["repeats"]),
        str(before["repeats"]),
    )
    assert row(out, glance, "Fees collected")[2:] == (
        f"{sum(now['fees'].values(), Decimal(0)):.2f}",
        f"{sum(before['fees'].values(), Decimal(0)):.2f}",
    )
    assert row(out, "Intakes by species", "Dogs")[2:] == (
        str(now["species"]["dog"]),
        str(before["species"]["dog"]),
    )
    assert row(out, "Dispositions by kind", "Adopted")[2:] == (
        str(now["kinds"]["adopted"]),
        str(before["kinds"]["adopted"]),
    )
    assert (
        row(out, "Fees collected at the pound, by kind", "Boarding")[2]
        == f"{now['fees']['boarding']:.2f}"
    )
    held = now["held"]
    assert row(out, "Days held", "Longest stay (days)")[2] == str(held[-1])
    assert row(out, "Days held", "Shortest stay (days)")[2] == str(held[0])
    middle = (held[(len(held) - 1) // 2] + held[len(held) // 2]) / 2
    assert row(out, "Days held", "Median days held")[2] == f"{middle:.1f}".removesuffix(".0")

    text = " ".join(pages_text(out.pdf))
    assert "Activity summary" in text and "2026" in text and "Page 1 of" in text
    assert "Sam Supervisor" in text and "Reviewed by" in text
    n, b = now["intakes"], before["intakes"]
    assert f"Animals impounded {n} {b} {change_text(n, b)}" in text
    total = sum(now["fees"].values(), Decimal(0))
    assert f"Fees collected {value_text(total)}" in text
    # Every figure the CSV lists is printed too (the table and, for charts, the bars).
    for _section, label, *_ in out.table.rows:
        assert label in text, label


def test_a_month_a_quarter_and_a_year_are_named(demo_db):
    assert period_name(date(2026, 3, 1), date(2026, 3, 31)) == "March 2026"
    assert period_name(date(2026, 10, 1), date(2026, 12, 31)) == "Q4 2026 (October to December)"
    assert period_name(*YEAR) == "2026"
    assert period_name(date(2026, 3, 2), date(2026, 3, 31)) == "Mon 2 Mar 2026 to Tue 31 Mar 2026"
    text = " ".join(pages_text(build(request(demo_db, date(2026, 11, 1), date(2026, 11, 30))).pdf))
    assert "November 2026" in text and "November 2025" in text


def test_a_hostile_label_prints_exactly_as_given(demo_db, install):
    section = ActivitySection(
        TRICKY_NAME,
        (ActivityFigure(TRICKY_NAME, 3, 1), ActivityFigure('<img src="x"> & co', 0, 2)),
        chart=True,
    )
    install(Module("hostile", "Hostile", activity=lambda db, start, end: (section,)))
    out = build(request(demo_db, by=TRICKY_NAME))
    text = " ".join(pages_text(out.pdf))
    assert text.count(TRICKY_NAME) >= 4  # printed by, title, table line, chart label
    assert '<img src="x"> & co' in text
    assert (TRICKY_NAME, TRICKY_NAME, "3", "1") in out.table.rows
    assert images_besides_the_letterhead(out.pdf) == []


@pytest.mark.parametrize(
    ("start", "end"),
    [(date(2026, 3, 31), date(2026, 3, 1)), (date(2026, 1, 1), date(2027, 1, 1))],
)
def test_a_bad_period_is_refused_naming_its_end(demo_db, start, end):
    with pytest.raises(ValidationError) as e:
        build(request(demo_db, start, end))
    assert e.value.field == "period_end"


def test_a_cancelled_summary_stops(demo_db):
    with pytest.raises(Cancelled):
        build(request(demo_db, cancelled=lambda: True))


def test_changes_are_signed_with_their_share():
    assert change_text(12, 10) == "+2 (+20%)"
    assert change_text(Decimal("20.00"), Decimal("40.00")) == "-$20.00 (-50%)"
    assert change_text(3, 0) == "+3"
    assert change_text(None, 4) == "—"
    assert change_text(2.5, 2.0) == "+0.5 (+25%)"
    assert value_text(None) == "—" and value_text(1234) == "1,234" and value_text(3.0) == "3"


def test_the_public_records_copy_says_so_and_every_page_carries_the_audit_link(demo_db):
    head = "audit #42 0123456789ab"
    public = pages_text(build(request(demo_db, redacted=True, audit_head=head)).pdf)
    assert "Public-records copy" in public[0] and "nothing is withheld" in public[0]
    assert all(head in page.replace("\n", " ") for page in public)
    plain = pages_text(build(request(demo_db)).pdf)
    assert not any("Public-records copy" in page for page in plain)
    # The footer's note, whole: which period stands beside each figure.
    assert all("Beside each figure: 2025" in page for page in plain)
