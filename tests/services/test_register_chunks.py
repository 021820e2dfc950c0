"""A year's register at a city's scale (issue 14): its lines are read a chunk at a time
in a few statements per chunk, whatever a chunk holds; the PDF's tables are built as its
pages are drawn; the file is written before the write lock is taken."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from accounts_support import enrol
from sqlalchemy import event, insert, select

from fieldops.db.cancel import Cancelled
from fieldops.db.engine import Database
from fieldops.db.models import AuditEvent, Disposition, Impoundment, Payment, PaymentLine
from fieldops.modules import ReportOutput, ReportTable, report_kind
from fieldops.reports.register import REGISTER_COLUMNS, ImpoundRegister, register_lines
from fieldops.rules import Profile
from fieldops.services import reports_run
from fieldops.services.context import Actor
from fieldops.services.registers import impound_register_rows, register_rows

CHICAGO = ZoneInfo("America/Chicago")
MARCH = (date(2026, 3, 1), date(2026, 3, 31))  # 500 impoundments
FEBRUARY = (date(2026, 2, 1), date(2026, 2, 28))  # 50
PRINTED = datetime(2026, 4, 1, 15, tzinfo=UTC)


def _fill(db: Database) -> None:
    """550 impoundments bulk-inserted: three at a time share one instant (a keyset must
    not lose or repeat one at a chunk's edge) and ids run against time in each block;
    dispositions (some corrected), releases to people and payments."""
    from fieldops.demo import _bulk_people

    _bulk_people(db, Actor("t", "admin"), random.Random(2), 5, 0)
    stamp = datetime(2026, 4, 1, tzinfo=UTC)
    animals, imps, disps, pays, lines = [], [], [], [], []
    n = 0
    for first, count in ((date(2026, 2, 1), 50), (date(2026, 3, 1), 500)):
        for k in range(count):
            n += 1
            day = first + timedelta(days=k * 28 // count)
            slot = (count - 1 - k) // 3  # later ids, earlier times; three per instant
            at = datetime.combine(day, time(8), CHICAGO) + timedelta(minutes=slot % 600)
            animals.append(
                {
                    "id": n,
                    "name": f"Dog {n}",
                    "species": "dog",
                    "breed": "Beagle",
                    "colour": "tan",
                    "sex": "male",
                    "created_at": stamp,
                    "updated_at": stamp,
                    "version": 1,
                }
            )
            imps.append(
                {
                    "id": n,
                    "animal_id": n,
                    "impounded_at": at,
                    "custody_day": day,
                    "last_claim_day": day + timedelta(days=7),
                    "release_to_others_from": at + timedelta(days=8),
                    "officer": "Off. Lee",
                    "reason": "at_large",
                    "recorded_by": "t",
                    "disposed": n % 4 != 0,
                    "created_at": stamp,
                    "updated_at": stamp,
                    "version": 1,
                }
            )
            if n % 4 == 0:
                continue
            kind = ("reclaimed", "adopted", "transferred")[n % 3]
            row = {
                "impoundment_id": n,
                "kind": kind,
                "at": at + timedelta(days=2),
                "recipient_id": 1 + n % 5 if kind != "transferred" else None,
                "to_owner": kind == "reclaimed",
                "transfer_to": "Dane County Humane Society" if kind == "transferred" else "",
                "recorded_by": "t",
                "recorded_at": at + timedelta(days=2),
            }
            disps.append({**row, "id": len(disps) + 1})
            if n % 10 == 1:  # a correction: a newer row naming the one in force
                disps.append(
                    {**row, "id": len(disps) + 1, "kind": "died", "corrects_id": len(disps)}
                )
            pays.append(
                {
                    "id": len(pays) + 1,
                    "impoundment_id": n,
                    "paid_at": at + timedelta(days=2),
                    "method": "cash",
                    "receipt_number": f"R-{n}",
                    "recorded_by": "t",
                }
            )
            for fee, amount in (("impound", "40.00"), ("boarding", f"{n % 7}.50")):
                lines.append({"payment_id": len(pays), "kind": fee, "amount": Decimal(amount)})
    with db.write() as s:
        from fieldops.db.models import Animal

        for model, rows in (
            (Animal, animals),
            (Impoundment, imps),
            (Disposition, disps),
            (Payment, pays),
            (PaymentLine, lines),
        ):
            s.execute(insert(model), rows)


@pytest.fixture(scope="module")
def big(tmp_path_factory, sqlite_template) -> Database:
    path = tmp_path_factory.mktemp("register") / "register.db"
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    _fill(db)
    yield db
    db.dispose()


@contextmanager
def counting(db: Database):
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def _lines(db: Database, period, chunk: int) -> list:
    with db.read() as s:
        return list(register_rows(s.connection(), *period, chunk=chunk))


def test_50_and_500_lines_take_the_same_statements_and_each_chunk_three(big):
    impound_register_rows(big, *FEBRUARY)  # a first connection may set itself up
    with counting(big) as fifty:
        assert len(impound_register_rows(big, *FEBRUARY)) == 50
    with counting(big) as five_hundred:
        assert len(impound_register_rows(big, *MARCH)) == 500
    assert len(fifty) == len(five_hundred) <= 4  # BEGIN and three statements
    with counting(big) as in_chunks:
        assert len(_lines(big, MARCH, 120)) == 500
    assert len(in_chunks) == 1 + 3 * 5  # five chunks of 120: 120, 120, 120, 120, 20


def test_lines_read_in_chunks_are_every_line_once_in_order_of_impoundment(big):
    whole = _lines(big, MARCH, 2_000)
    assert [(r.impounded_at, r.id) for r in whole] == sorted((r.impounded_at, r.id) for r in whole)
    assert len({r.id for r in whole}) == 500
    for chunk in (13, 100, 499):  # chunk edges inside a run of lines at one instant
        assert _lines(big, MARCH, chunk) == whole
    ids = [r.id for r in whole]
    assert ids != sorted(ids)  # in time order, not the ids' order
    corrected = next(r for r in whole if r.id == 61)
    assert corrected.disposition.kind == "died"  # the correction is in force
    assert dict(corrected.fees_paid) == {"impound": Decimal("40.00"), "boarding": Decimal("5.50")}


def test_only_the_first_chunk_is_read_before_the_first_line(big):
    with big.read() as s, counting(big) as statements:
        rows = register_rows(s.connection(), *MARCH, chunk=100)
        next(rows)
        assert [st.split()[0] for st in statements] == ["BEGIN", "SELECT", "SELECT", "SELECT"]
        rows.close()


def test_the_pdf_draws_its_tables_as_its_pages_go(big, monkeypatch):
    """At most the tables of one page's lines exist when a page is finished, not all 200
    lines' worth; the totals and the summary are the tally of every line."""
    rows = impound_register_rows(big, *MARCH)[:200]
    lines, tally = register_lines(rows, CHICAGO)
    built: list[int] = []
    at_first_page: list[int] = []
    real = ImpoundRegister.data_table

    def data_table(self, header, rows, *args, **kwargs):
        built.append(len(rows))
        return real(self, header, rows, *args, **kwargs)

    from fieldops.reports import base

    real_show = base._NumberedCanvas.showPage

    def show_page(self):
        if not at_first_page:
            at_first_page.append(sum(built))
        real_show(self)

    from fieldops.reports import register_draw

    class Drawn(register_draw.RegisterTable):  # the register's lines' tables (issue 14)
        def __init__(self, header, rows, *args, **kwargs):
            built.append(len(rows))
            super().__init__(header, rows, *args, **kwargs)

    monkeypatch.setattr(ImpoundRegister, "data_table", data_table)
    monkeypatch.setattr("fieldops.reports.register.RegisterTable", Drawn)
    monkeypatch.setattr(base._NumberedCanvas, "showPage", show_page)
    monkeypatch.setattr("fieldops.reports.register.TABLE_LINES", 50)
    doc = ImpoundRegister(
        lines,
        tally,
        period_start=MARCH[0],
        period_end=MARCH[1],
        jurisdiction="City of Riverton",
        tz=CHICAGO,
        printed_at=PRINTED,
    )
    pdf = doc.render()
    assert pdf.startswith(b"%PDF")
    assert at_first_page[0] <= 100  # the first page's table and the next one at most
    assert sum(built[:-4]) == 198  # every line but the two kept with the totals
    assert tally.count == 200
    fees = {r.id: Decimal("40.00") + Decimal(f"{r.id % 7}.50") for r in rows if r.id % 4}
    assert tally.total == sum(fees.values())


def test_the_file_is_written_before_the_write_lock_is_taken(big, tmp_path, monkeypatch):
    """While the file goes to disk another workstation can still save; the event is
    committed with the file in place, and nothing is left beside it."""
    path = big.engine.url.database
    saves: list[str] = []
    real_fsync = os.fsync

    def fsync(fd):  # the file's flush to disk, the slow part of writing it
        if not saves:
            other = sqlite3.connect(path, timeout=0)
            try:
                other.execute("BEGIN IMMEDIATE")  # a save's transaction, elsewhere
                other.rollback()
                saves.append("saved")
            except sqlite3.OperationalError as exc:
                saves.append(str(exc))
            finally:
                other.close()
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    table = ReportTable(REGISTER_COLUMNS, [("1", "Sun 1 Mar 2026", "=cmd", "", "", "", "")])
    produced = reports_run.Produced(
        report_kind("impound-register"), *MARCH, False, ReportOutput(table, b"%PDF-")
    )
    actor = enrol(big, Actor("sam", "supervisor"))
    out = reports_run.export(big, actor, produced, tmp_path / "r.csv")
    assert saves == ["saved"]
    assert out.read_bytes() == reports_run.csv_bytes(table)
    assert out.read_bytes().startswith(b"\xef\xbb\xbfNo.,") and b"'=cmd" in out.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"]
    with big.read() as s:
        events = s.scalars(
            select(AuditEvent.after).where(
                AuditEvent.entity == "report", AuditEvent.action == "exported"
            )
        ).all()
    assert events[-1]["file"] == "r.csv" and events[-1]["format"] == "csv"


def test_a_csv_export_never_draws_the_pdf_and_the_pdf_is_drawn_once(big, tmp_path, monkeypatch):
    from fieldops.reports import register as document

    drawn: list[int] = []
    real = document.register_pdf

    def register_pdf(lines, tally, **kwargs):
        drawn.append(len(lines))
        return real(lines, tally, **kwargs)

    monkeypatch.setattr(document, "register_pdf", register_pdf)
    actor = enrol(big, Actor("sam", "supervisor"))
    made = reports_run.produce(big, actor, "register", *FEBRUARY, Profile.default(), audited=False)
    out = reports_run.export(big, actor, made, tmp_path / "r.csv")
    assert drawn == []
    assert out.read_bytes().count(b"\r\n") == 51  # the header and the 50 lines
    pdf = made.output.pdf
    assert made.output.pdf is pdf and drawn == [50]
    assert b"%PDF" in pdf[:10]


def test_a_cancel_stops_the_register_while_its_lines_are_read(big, monkeypatch):
    monkeypatch.setattr("fieldops.services.registers.CHUNK", 100)  # asked every 100 lines
    asked: list[int] = []
    seen: list[tuple[int, int]] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 1  # wanted when it starts, not once the reading is under way

    actor = enrol(big, Actor("sam", "supervisor"))
    with pytest.raises(Cancelled):
        reports_run.produce(
            big,
            actor,
            "register",
            *MARCH,
            Profile.default(),
            cancelled=cancelled,
            progress=lambda done, total: seen.append((done, total)),
        )
    assert seen == [(0, 3)]
    assert len(asked) == 2  # stopped at the first look, after 100 of the 500 lines
