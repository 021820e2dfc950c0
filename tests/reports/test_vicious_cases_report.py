"""The "Vicious-animal cases" report checked by its text against the demo data it came from,
with a hostile owner's name: every case line, the period, the headers on every page,
"Page X of Y", who printed it, the counts and the signature line."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest
from accounts_support import enrol
from sqlalchemy import func, select
from vicious_cases import HOSTILE, declared, owner_and_dog

from fieldops.db.engine import Database
from fieldops.db.models import ViciousCase, ViciousNotice
from fieldops.demo import fill
from fieldops.modules import ReportRequest, report_kind
from fieldops.rules import Profile, format_day
from fieldops.services.context import Actor, now

# The demo serves one notice relative to the clock ("expiring within a day"): anchor today.
PRINTED = now()
ANCHOR = PRINTED.astimezone(Profile.default().timezone).date()
START, END = ANCHOR - timedelta(days=60), ANCHOR


@pytest.fixture(scope="module")
def demo(tmp_path_factory, sqlite_template):
    """Demo data (read only by these tests, so written once) and a hostile owner's case."""
    path = tmp_path_factory.mktemp("vicious-report") / "demo.db"
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    sam = enrol(db, Actor(username="sam", role="supervisor", full_name="Sam Supervisor"))
    fill(db, sam, seed=3, people=200, anchor=ANCHOR)
    _owner, dog = owner_and_dog(db, sam, ANCHOR, HOSTILE, "Rex <the dog>")
    hostile = declared(db, sam, Profile.default(), dog.id, decided_at=PRINTED - timedelta(days=2))
    yield db, hostile
    db.dispose()


def build(db, **kw):
    return report_kind("vicious-cases").build(
        ReportRequest(db, START, END, Profile.default(), PRINTED, "Sgt. O'Brien & <Sons>", **kw)
    )


def test_the_report_prints_every_demo_case_and_the_hostile_name(demo, read_pdf):
    db, hostile = demo
    out = build(db)
    pages = read_pdf(out.pdf)
    text = " ".join(pages)
    with db.read() as s:
        cases = s.scalar(select(func.count()).select_from(ViciousCase))
        notices = s.scalar(select(func.count()).select_from(ViciousNotice))
    assert cases >= 8 and len(out.table.rows) == cases  # every demo case falls in 60 days
    assert notices >= 5
    for row in out.table.rows:
        case_id, decided, animal = row[0], row[1], row[2]
        assert decided in text and animal.split(" (")[0] in text, case_id
    assert HOSTILE in text and "Rex <the dog>" in text
    assert "Sgt. O'Brien & <Sons>" in text
    assert f"{format_day(START)} to {format_day(END)}" in text
    for n, page in enumerate(pages, start=1):
        assert f"Page {n} of {len(pages)}" in page
        if "Counts for the period" not in page or n == 1:
            assert "Notices: service and deadline" in page  # the header, on every table page
    assert "Reviewed and certified correct by the supervisor" in pages[-1]
    assert "Nothing is withheld" in text
    # The counts after the table agree with the rows printed (everything in the demo
    # happened within the 60 days).
    cols = {c: i for i, c in enumerate(out.table.columns)}

    def how_many(column, start):
        return sum(
            line.startswith(start) for r in out.table.rows for line in r[cols[column]].splitlines()
        )

    counts = [
        how_many("Decision", "Declared"),
        how_many("Decision", "Refused"),
        how_many("Notices: service and deadline", "In person"),
        how_many("Notices: service and deadline", "Posted"),
        how_many("Outcome", "The animal was destroyed"),
        how_many("Outcome", "The animal was removed"),
        how_many("Outcome", "The owner did not comply"),
    ]
    assert all(counts) and sum(counts[2:4]) == notices
    assert "Not complied " + " ".join(map(str, counts)) in pages[-1]
    assert hostile.id in {int(r[0]) for r in out.table.rows}


def test_the_public_records_copy_says_so_and_withholds_nothing(demo, read_pdf):
    db, _hostile = demo
    out = build(db, redacted=True)
    text = " ".join(read_pdf(out.pdf))
    assert "Public-records copy" in text and "Nothing is withheld" in text
    assert out.table.withheld == ()
    assert out.table.rows == build(db).table.rows


def test_the_demo_links_bite_reports_on_file_through_the_seam(demo):
    db, _hostile = demo
    from fieldops.db.models import ViciousIncident
    from fieldops.modules import animal_incidents

    with db.read() as s:
        rows = s.execute(
            select(ViciousIncident.source_id, ViciousCase.animal_id)
            .join(ViciousCase, ViciousCase.id == ViciousIncident.case_id)
            .where(ViciousIncident.source_module == "quarantine")
        ).all()
        assert rows, "the demo links at least one bite report"
        for source_id, animal_id in rows:
            assert source_id in {i.record_id for i in animal_incidents(s, animal_id)}
