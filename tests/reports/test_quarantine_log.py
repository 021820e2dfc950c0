"""The quarantine log through the reports seam (issue 11): rows for a period, the PDF by its
text against demo data with a hostile name, the public-records copy, the activity figures."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from pypdf import PdfReader
from quarantine_support import PROFILE, bite_input, days_ago, local_today

from fieldops import modules
from fieldops.db.cancel import Cancelled
from fieldops.errors import ValidationError
from fieldops.services import quarantine as qs
from fieldops.services.context import now

HOSTILE = "O'Brien & <Sons>"


def text_of(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def demo_db(sqlite_db, officer, supervisor):
    from fieldops.demo import fill

    fill(sqlite_db, supervisor, seed=3, people=30)  # pound and officer work alike
    clinic = qs.list_clinics(sqlite_db, licensed_only=True)[0]
    qs.report_bite(
        sqlite_db,
        officer,
        bite_input(
            days_ago(1),
            species="dog",
            animal_description="Black lab",
            owner_unknown=True,
            victim_name=HOSTILE,
            victim_contact="608-555-7777",
            clinic_id=clinic.id,
        ),
        PROFILE,
    )
    return sqlite_db


def request(db, **kw):
    data = {
        "db": db,
        "start": local_today() - timedelta(days=40),
        "end": local_today(),
        "profile": PROFILE,
        "printed_at": now(),
        "printed_by": "Sam Supervisor",
    }
    data.update(kw)
    return modules.ReportRequest(**data)


def test_the_log_is_a_report_kind_of_the_module():
    kind = modules.report_kind("quarantine-log")
    assert kind is not None and "Quarantine log" in kind.title


def test_the_log_lists_every_bite_of_the_period(demo_db):
    out = modules.report_kind("quarantine-log").build(request(demo_db))
    t = out.table
    assert t.columns[0] == "Bite" and not t.withheld
    with demo_db.read() as s:
        from sqlalchemy import text

        bites = s.execute(text("SELECT count(*) FROM bite_report")).scalar_one()
    assert len(t.rows) == bites >= 8
    cells = {c for row in t.rows for c in row}
    assert HOSTILE in cells
    assert any(c.startswith("OVERDUE: was due") for c in cells)  # demo: an overdue certificate
    assert any(c.startswith("referred") for c in cells)  # demo: a bat or the like
    assert any(c.endswith("of 3") for c in cells)
    text = text_of(out.pdf)
    assert "Quarantine log" in text and HOSTILE in text
    assert "Reviewed and certified correct by the supervisor" in text and "Sam Supervisor" in text
    start = local_today() - timedelta(days=40)
    assert start.strftime("%Y") in text and "608-555-7777" not in text
    # The column headings are repeated on every page.
    reader = PdfReader(io.BytesIO(out.pdf))
    pages = [p.extract_text() for p in reader.pages]
    # Every page with rows has them (the last may hold only what follows the table).
    assert all("Person bitten" in p for p in pages[:-1]) and "Person bitten" in pages[0]
    assert "Signature" in pages[-1]


def test_the_public_records_copy_withholds_the_person_bitten(demo_db):
    out = modules.report_kind("quarantine-log").build(request(demo_db, redacted=True))
    assert [w.what for w in out.table.withheld] == ["the bitten person's name and contact"]
    assert {row[2] for row in out.table.rows} == {"(withheld)"}
    text = text_of(out.pdf)
    assert "O'Brien" not in text and "withheld from this copy" in text


def test_a_bad_period_names_its_field_and_a_cancel_stops(demo_db):
    with pytest.raises(ValidationError) as exc:
        modules.report_kind("quarantine-log").build(
            request(demo_db, start=date(2026, 5, 2), end=date(2026, 5, 1))
        )
    assert {e.field for e in exc.value.errors} == {"period_end"}
    with pytest.raises(Cancelled):
        modules.report_kind("quarantine-log").build(request(demo_db, cancelled=lambda: True))
