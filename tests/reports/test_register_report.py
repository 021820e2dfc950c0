"""The 58-528 register as a report on the seam: found by name, built from the database,
its PDF and CSV the same rows, the public-records copy, and every run audited (issue 11)."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from pypdf import PdfReader
from sqlalchemy import func, select
from support import local

from fieldops import __version__
from fieldops.db.cancel import Cancelled
from fieldops.db.models import AuditEvent, Impoundment, Payment, PaymentLine
from fieldops.demo import fill
from fieldops.errors import UserError, ValidationError
from fieldops.modules import ReportTable, report_kind
from fieldops.rules import Profile
from fieldops.services import reports_run
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.audit import audit_head
from fieldops.services.dispositions import ReleaseRequest, release
from fieldops.services.impound_views import PAYMENT_KINDS
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person

HOSTILE = 'Zoë O\'Brien & <Sons> "Łukasz" Дмитрий Ζωή'
HOSTILE_ADDRESS = "12 Elm St & 3rd <Ave>"
HOSTILE_LINE = f"{HOSTILE}, {HOSTILE_ADDRESS}, Madison, WI"
NOVEMBER = (date(2026, 11, 1), date(2026, 11, 30))


def pdf_pages(pdf: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", p.extract_text() or "") for p in PdfReader(io.BytesIO(pdf)).pages]


@pytest.fixture
def records(db, supervisor):
    """The demo data, and a release in November to a person with a hostile name."""
    profile = Profile.default()
    fill(db, supervisor, seed=3, people=40, anchor=date(2026, 11, 30))
    owner = create_person(
        db,
        supervisor,
        PersonInput(
            full_name=HOSTILE, address=HOSTILE_ADDRESS, city="Madison", phone="608-555-0199"
        ),
    )
    dog = create_animal(
        db,
        supervisor,
        AnimalInput(
            species="dog", name="Rex", breed="Beagle", colour="tan", sex="male", owner_id=owner.id
        ),
        today=date(2026, 11, 30),
    )
    imp = intake(
        db,
        supervisor,
        IntakeInput(
            impounded_at=local(2026, 11, 10, 9),
            animal_id=dog.id,
            officer="Off. Dana Lee",
            reason="at_large",
            found_place="Elm & 3rd",
        ),
        profile,
    )
    paid_at = local(2026, 11, 12, 10)
    fees = quote(db, imp.id, paid_at, True, profile)
    lines = [
        LineInput(kind, line.amount, "")
        for kind, line in zip(["impound", "boarding"], fees.lines, strict=False)
        if line.amount > 0
    ]
    lines.append(LineInput("licence", Decimal("20.00"), ""))
    record_payment(
        db,
        supervisor,
        imp.id,
        PaymentInput(tuple(lines), "cash", "R-77", payer_id=owner.id),
        profile,
    )
    release(
        db,
        supervisor,
        imp.id,
        ReleaseRequest(
            True, owner.id, at=paid_at, rabies_certificate="RV-1", licence_receipt="L-1"
        ),
        profile,
    )
    return profile, imp.id


def _in_period(db, start, end):
    """What the database holds for the period, read independently of the register."""
    with db.read() as s:
        ids = set(
            s.scalars(
                select(Impoundment.id).where(
                    Impoundment.custody_day >= start, Impoundment.custody_day <= end
                )
            )
        )
        by_kind = dict(
            s.execute(
                select(PaymentLine.kind, func.sum(PaymentLine.amount))
                .join(Payment, Payment.id == PaymentLine.payment_id)
                .where(Payment.impoundment_id.in_(ids))
                .group_by(PaymentLine.kind)
            ).all()
        )
    return ids, {k: Decimal(str(v)).quantize(Decimal("0.01")) for k, v in by_kind.items()}


def _events(db):
    with db.read() as s:
        return [
            (e.actor, e.action, e.after)
            for e in s.scalars(select(AuditEvent).where(AuditEvent.entity == "report"))
        ]


def test_the_register_is_on_the_seam_under_its_name_and_its_old_one():
    kind = report_kind("impound-register")
    assert kind is not None and report_kind("register") is kind
    assert kind.title == "Impound record register (58-528)"
    assert {"impound-register", "register"} <= set(reports_run.report_names())
    with pytest.raises(UserError, match="impound-register"):
        reports_run.find_report("registr")


def test_the_register_prints_every_impoundment_and_the_fees_by_kind(db, records, supervisor):
    profile, hostile_id = records
    head = audit_head(db)  # the trail as it stood when the report was asked for
    made = reports_run.produce(db, supervisor, "register", *NOVEMBER, profile)
    ids, by_kind = _in_period(db, *NOVEMBER)
    assert len(ids) > 1 and hostile_id in ids
    table = made.output.table
    assert {int(r[0]) for r in table.rows} == ids
    pages = pdf_pages(made.output.pdf)
    text = " ".join(pages)
    # The hostile name and address print exactly as typed, beside the date of delivery.
    hostile = next(r for r in table.rows if r[0] == str(hostile_id))
    assert hostile[4] == HOSTILE_LINE
    assert HOSTILE_LINE in text
    assert "Reclaimed by owner" in hostile[3] and hostile[5] == "Thu 12 Nov 2026"
    assert f"Total: {len(ids)} impoundments" in text
    # Totals by fee kind (58-528 keeps every fee paid), as the database sums them.
    assert by_kind, "the period's releases paid fees"
    summary = text[text.index("Fees paid by kind") :]
    for kind, amount in by_kind.items():
        assert f"{PAYMENT_KINDS[kind]}" in summary and f"${amount:,}" in summary
    assert f"${sum(by_kind.values()):,}" in summary
    # The frame: who generated it, with which version, a page count and a signature line.
    assert f"by {supervisor.full_name}" in pages[0] and f"FieldOps {__version__}" in pages[0]
    for n, page in enumerate(pages, start=1):
        assert f"Page {n} of {len(pages)}" in page
    assert "Reviewed and certified correct by the supervisor" in pages[-1]
    assert "Signature Name (printed) Date" in pages[-1]
    # The audit trail's latest link when it was produced, on every page (issue 12).
    assert head.startswith("audit #") and len(head.split()) == 3
    assert all(f"Audit trail at printing: {head}" in page for page in pages)


def test_the_csv_holds_the_same_rows_and_round_trips(db, records, supervisor, tmp_path):
    profile, _ = records
    made = reports_run.produce(db, supervisor, "impound-register", *NOVEMBER, profile)
    out = reports_run.export(db, supervisor, made, tmp_path / "november.csv")
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM for the spreadsheet
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows[0] == list(made.output.table.columns)
    assert rows[1:] == [list(r) for r in made.output.table.rows]
    assert any(HOSTILE in cell for row in rows for cell in row)


@pytest.mark.parametrize("cell", ['=HYPERLINK("x")', "+1", "-2", "@SUM(A1)", "\t=1"])
def test_a_cell_a_spreadsheet_would_run_is_neutralized(cell):
    table = ReportTable(("Name", "Note"), [(cell, "plain")])
    rows = list(csv.reader(io.StringIO(reports_run.csv_bytes(table).decode("utf-8-sig"))))
    assert rows == [["Name", "Note"], [f"'{cell}", "plain"]]


def test_the_public_records_copy_withholds_contacts_and_says_so(db, records, supervisor):
    profile, hostile_id = records
    made = reports_run.produce(db, supervisor, "register", *NOVEMBER, profile, redacted=True)
    table = made.output.table
    assert table.withheld and "address" in table.withheld[0].what
    hostile = next(r for r in table.rows if r[0] == str(hostile_id))
    assert hostile[4] == f"{HOSTILE}, [withheld]"
    pages = pdf_pages(made.output.pdf)
    first = pages[0]
    assert "Public-records copy" in first
    assert table.withheld[0].what in first and table.withheld[0].why in first
    assert HOSTILE_ADDRESS not in " ".join(pages) and "608-555-0199" not in " ".join(pages)
    assert HOSTILE in " ".join(pages)  # the record's name stays (58-528)


def test_producing_and_exporting_are_audited_with_what_was_asked(db, records, supervisor, tmp_path):
    profile, _ = records
    made = reports_run.produce(db, supervisor, "register", *NOVEMBER, profile, redacted=True)
    reports_run.export(db, supervisor, made, tmp_path / "r.pdf")
    produced, exported = _events(db)
    what = {
        "report": "impound-register",
        "period_start": "2026-11-01",
        "period_end": "2026-11-30",
        "redacted": True,
    }
    assert produced[:2] == ("sam", "produced") and what.items() <= produced[2].items()
    assert produced[2]["format"] == "preview"
    assert exported[:2] == ("sam", "exported") and what.items() <= exported[2].items()
    assert exported[2]["format"] == "pdf" and exported[2]["file"] == "r.pdf"
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")


def test_a_failed_export_leaves_neither_a_file_nor_an_event(db, records, supervisor, tmp_path):
    profile, _ = records
    made = reports_run.produce(db, supervisor, "register", *NOVEMBER, profile, audited=False)
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(OSError):
        reports_run.export(db, supervisor, made, folder / "missing" / "r.pdf")
    with pytest.raises(UserError, match=r"\.pdf or \.csv"):
        reports_run.export(db, supervisor, made, folder / "r.docx")

    def refuse(path):
        raise UserError("not there")

    with pytest.raises(UserError, match="not there"):
        reports_run.export(db, supervisor, made, folder / "r.pdf", check_path=refuse)
    assert _events(db) == []
    assert list(folder.iterdir()) == []


def test_a_cancelled_report_stops_and_is_not_audited(db, records, supervisor):
    profile, _ = records
    seen: list[tuple[int, int]] = []

    def progress(done, total):
        seen.append((done, total))

    with pytest.raises(Cancelled):
        reports_run.produce(
            db,
            supervisor,
            "register",
            *NOVEMBER,
            profile,
            cancelled=lambda: bool(seen),
            progress=progress,
        )
    assert seen == [(0, 3)]
    assert _events(db) == []
    seen.clear()
    reports_run.produce(db, supervisor, "register", *NOVEMBER, profile, progress=progress)
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]


def test_a_bad_period_is_refused_on_its_field(db, supervisor):
    profile = Profile.default()
    with pytest.raises(ValidationError) as refused:
        reports_run.produce(db, supervisor, "register", date(2026, 3, 2), date(2026, 3, 1), profile)
    assert refused.value.field == "period_end"
    with pytest.raises(ValidationError):
        reports_run.produce(
            db,
            supervisor,
            "register",
            date(2025, 1, 1),
            date(2025, 1, 1) + timedelta(days=400),
            profile,
        )
    assert _events(db) == []
