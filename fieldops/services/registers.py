"""Data for the supervisor's record reports (city code 58-528).

The register's rows come from three set-based statements for each chunk of
``CHUNK`` impoundments, whatever the chunk holds: the impoundments with their
animals, the disposition in force of each with the person it went to, and the
fees paid by kind. (Built one impoundment at a time through the record view it
took about seven statements a row: 255 s and 1.5 GB for a year of 100,092.)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, Select, and_, func, or_, select, type_coerce

from fieldops.db.cancel import Cancelled, cancellable
from fieldops.db.engine import Database
from fieldops.db.models import Animal, Disposition, Impoundment, Payment, PaymentLine, Person
from fieldops.db.types import Money
from fieldops.errors import Collector
from fieldops.modules import ReportKind, ReportOutput, ReportRequest, ReportTable
from fieldops.services.impounds import animal_description, party_view
from fieldops.services.register_views import RegisterDisposition, RegisterRow, by_kind

MAX_PERIOD_DAYS = 366
#: Impoundments read a chunk at a time: a year at 1,000,000 impoundments is about
#: 100,000 lines, and only one chunk of them is ever held as rows.
CHUNK = 2_000


def _check_period(period_start: date, period_end: date) -> None:
    c = Collector()
    c.check(period_end >= period_start, "period_end", "The period cannot end before it starts.")
    c.check(
        (period_end - period_start).days < MAX_PERIOD_DAYS,
        "period_end",
        "Print at most a year at a time.",
    )
    c.raise_if_any()


def impound_register_rows(
    db: Database, period_start: date, period_end: date
) -> tuple[RegisterRow, ...]:
    """Every impoundment whose custody day falls in the period, as the register prints it,
    in order of impoundment (58-528; RULES.md section 2, "The record"), read in one
    read transaction (``register_rows``)."""
    _check_period(period_start, period_end)
    with db.read() as s, cancellable(s):  # a Cancel on the Reports page stops the reads
        return tuple(register_rows(s.connection(), period_start, period_end))


def register_rows(
    conn: Connection, period_start: date, period_end: date, *, chunk: int = CHUNK
) -> Iterator[RegisterRow]:
    """The period's lines in order of impoundment (impounded_at, then id), read in
    keyset chunks of ``chunk`` impoundments: three statements a chunk (the
    impoundments with their animals, the disposition in force of each with the
    person it went to, the fees paid by kind), whatever the chunk holds, so the
    count grows with the period's length only by one chunk in ``chunk``.

    The caller holds the read transaction (one snapshot for every chunk) and may
    stop early. A chunk's impoundments reach its other two statements as a
    subquery, never as a list of bound ids (SQLite limits those). Only one chunk's
    rows are held at a time.
    """
    _check_period(period_start, period_end)
    _read_ahead(conn, period_start, period_end)
    after: tuple[datetime, int] | None = None
    while True:
        if after is None:
            where = [Impoundment.custody_day >= period_start, Impoundment.custody_day <= period_end]
        else:
            # Past the first chunk, walk the impoundments in the register's order from
            # the last line printed rather than sort the whole period again for each
            # chunk (0.2 s a chunk at 100,000 a year): the custody day, still what
            # decides which lines belong, is then compared through coalesce(), which
            # keeps the planners off its index.
            at, last_id = after
            day = func.coalesce(Impoundment.custody_day, Impoundment.custody_day)
            where = [
                day >= period_start,
                day <= period_end,
                Impoundment.impounded_at >= at,
                or_(
                    Impoundment.impounded_at > at,
                    and_(Impoundment.impounded_at == at, Impoundment.id > last_id),
                ),
            ]
        order = (Impoundment.impounded_at, Impoundment.id)
        chunk_ids = select(Impoundment.id).where(*where).order_by(*order).limit(chunk)
        lines = (
            select(*_IMPOUNDMENT_COLUMNS)
            .join(Animal, Animal.id == Impoundment.animal_id)
            .order_by(*order)
        )
        if after is None:
            # The first chunk is chosen before its animals are joined: joined first,
            # every animal of the period was read to sort them (the period's first
            # 2,000 taken from a sort of all 100,000 at 1,000,000).
            lines = lines.where(Impoundment.id.in_(chunk_ids))
        else:  # in order along the index from the last line: no sort to take them from
            lines = lines.where(*where).limit(chunk)
        impoundments = conn.execute(lines).all()
        if not impoundments:
            return
        current = _current_dispositions(conn, chunk_ids)
        paid = _fees_paid(conn, chunk_ids)
        for row in impoundments:
            yield _line(row, current.get(row[0]), paid.get(row[0]))
        if len(impoundments) < chunk:
            return
        after = (impoundments[-1][1], impoundments[-1][0])


#: A period at least this long reads the animals and people through in file order
#: first (``_read_ahead``).
READ_AHEAD_DAYS = 90


def _read_ahead(conn: Connection, period_start: date, period_end: date) -> None:
    """Read the animal and person tables through once, in the order they lie in the
    file, before a long period's lines look up their animals and recipients.

    A period's impoundments are in order of time, but their animals and recipients
    lie anywhere in those tables: looked up one by one, a year at 1,000,000 read
    each of 100,000 animals and 60,000 people from a different place on disk
    (most of a minute when the file is not in memory). Read in order, the same
    pages come in a few seconds, and the lookups then find them in memory. Only on
    SQLite, a file this process reads (a server keeps its own cache), and only for
    a period long enough to look up a good part of both tables. Nothing is kept.
    """
    if conn.dialect.name != "sqlite" or (period_end - period_start).days < READ_AHEAD_DAYS:
        return
    conn.execute(select(func.count(Animal.name))).scalar()
    conn.execute(select(func.count(Person.full_name))).scalar()


_IMPOUNDMENT_COLUMNS = (
    Impoundment.id,
    Impoundment.impounded_at,
    Impoundment.custody_day,
    Impoundment.altered,
    Animal.id,
    Animal.name,
    Animal.species,
    Animal.species_detail,
    Animal.breed,
    Animal.colour,
    Animal.sex,
    Animal.altered,
    Animal.birth_date,
    Animal.markings,
    Animal.microchip,
    Animal.licence_number,
    Animal.licence_year,
)


def _current_dispositions(conn: Connection, ids: Select[Any]) -> dict[int, RegisterDisposition]:
    """The disposition in force of each impoundment in ``ids``, with its recipient.

    Dispositions are append-only and a correction is a newer row naming the one in
    force, so the newest row of an impoundment is the one no correction supersedes.
    """
    current_ids = (
        select(func.max(Disposition.id))
        .where(Disposition.impoundment_id.in_(ids))
        .group_by(Disposition.impoundment_id)
    )
    rows = conn.execute(
        select(
            Disposition.impoundment_id,
            Disposition.kind,
            Disposition.at,
            Disposition.transfer_to,
            Person.id,
            Person.full_name,
            Person.address,
            Person.city,
            Person.state,
            Person.postal_code,
            Person.phone,
        )
        .outerjoin(Person, Person.id == Disposition.recipient_id)
        .where(Disposition.id.in_(current_ids))
    ).all()
    current: dict[int, RegisterDisposition] = {}
    for imp_id, kind, at, transfer_to, person_id, *person in rows:
        recipient = None if person_id is None else party_view(person_id, *person)
        current[imp_id] = RegisterDisposition(kind, at, recipient, transfer_to)
    return current


def _fees_paid(conn: Connection, ids: Select[Any]) -> dict[int, dict[str, Decimal]]:
    """Every fee paid on each impoundment in ``ids``, summed by kind."""
    rows = conn.execute(
        select(
            Payment.impoundment_id,
            PaymentLine.kind,
            type_coerce(func.sum(PaymentLine.amount), Money),
        )
        .join(Payment, Payment.id == PaymentLine.payment_id)
        .where(Payment.impoundment_id.in_(ids))
        .group_by(Payment.impoundment_id, PaymentLine.kind)
    ).all()
    paid: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for imp_id, kind, amount in rows:
        paid[imp_id][kind] = amount
    return paid


def _line(
    row: Sequence[Any],
    disposition: RegisterDisposition | None,
    fees: dict[str, Decimal] | None,
) -> RegisterRow:
    (
        imp_id,
        impounded_at,
        custody_day,
        seen_altered,
        animal_id,
        name,
        species,
        species_detail,
        breed,
        colour,
        sex,
        altered,
        birth_date,
        markings,
        microchip,
        licence_number,
        licence_year,
    ) = row
    animal = animal_description(
        animal_id=animal_id,
        name=name,
        species=species,
        species_detail=species_detail,
        breed=breed,
        colour=colour,
        sex=sex,
        altered=altered,
        birth_date=birth_date,
        markings=markings,
        microchip=microchip,
        licence_number=licence_number,
        licence_year=licence_year,
        on=custody_day,
        seen_altered=seen_altered,
    )
    return RegisterRow(imp_id, impounded_at, animal, disposition, by_kind(fees) if fees else ())


# ------------------------------------------------------------------ the ReportKind


def register_report(request: ReportRequest) -> ReportOutput:
    """The 58-528 register for the request's period: its rows (the CSV) and its PDF.

    The lines are read in one read transaction, a chunk at a time (``register_rows``),
    and only their printed text is kept (``register_lines``): the CSV's rows, which
    the PDF then draws. A bad period is a ``ValidationError`` on
    ``period_start``/``period_end``. The public-records copy withholds each
    recipient's address and phone (``fieldops.reports.register.REGISTER_WITHHELD``).
    """
    from fieldops.reports.register import (
        REGISTER_COLUMNS,
        REGISTER_WITHHELD,
        register_lines,
        register_pdf,
    )

    def step(done: int) -> None:
        if request.cancelled():
            raise Cancelled("the register is no longer wanted")
        request.progress(done, 3)

    step(0)
    _check_period(request.start, request.end)
    tz = request.profile.timezone
    with request.db.read() as s, cancellable(s):  # a Cancel on the Reports page stops the reads
        rows = register_rows(s.connection(), request.start, request.end)
        rows = _polled(rows, request.cancelled)
        lines, tally = register_lines(rows, tz, redacted=request.redacted)
    step(1)
    withheld = REGISTER_WITHHELD if request.redacted else ()
    table = ReportTable(REGISTER_COLUMNS, lines, withheld)
    step(2)

    def draw() -> bytes:
        return register_pdf(
            lines,
            tally,
            period_start=request.start,
            period_end=request.end,
            jurisdiction=request.profile.name,
            tz=tz,
            printed_at=request.printed_at,
            printed_by=request.printed_by,
            redacted=request.redacted,
            audit_head=request.audit_head,
        )

    step(3)
    return DrawnWhenAsked(table, draw)


def _polled(rows: Iterator[RegisterRow], cancelled: Callable[[], bool]) -> Iterator[RegisterRow]:
    """The rows, asking after each chunk whether they are still wanted (a year takes
    seconds to read); ``Cancelled`` when they are not."""
    for n, row in enumerate(rows, start=1):
        yield row
        if n % CHUNK == 0 and cancelled():
            raise Cancelled("the register is no longer wanted")


class DrawnWhenAsked(ReportOutput):
    """A report whose PDF is drawn the first time it is asked for, from the lines
    already read (the table's: the same snapshot, so PDF and CSV never differ).

    A CSV export never draws it: for a year's register that is most of the time
    the command takes. The preview, a printout or a PDF export draws it once, in
    the task that asked for it.
    """

    _draw: Callable[[], bytes]
    _pdf: bytes | None

    def __init__(self, table: ReportTable, draw: Callable[[], bytes]) -> None:
        # ReportOutput is frozen: its fields are set the way its own __init__ sets them.
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "_draw", draw)
        object.__setattr__(self, "_pdf", None)

    @property
    def pdf(self) -> bytes:  # the base's field, computed here
        pdf = self._pdf
        if pdf is None:
            pdf = self._draw()
            object.__setattr__(self, "_pdf", pdf)
        return pdf

    def __repr__(self) -> str:
        state = "drawn" if self._pdf is not None else "not drawn yet"
        return f"DrawnWhenAsked({len(self.table.rows)} rows, PDF {state})"


IMPOUND_REGISTER = ReportKind(
    name="impound-register",
    title="Impound record register (58-528)",
    build=register_report,
    aliases=("register",),
    description=(
        "Every animal impounded in the period, one line each: its description, the date "
        "of impoundment and the disposition; for a release, the person it went to, the "
        "date of delivery and every fee paid; totals by fee kind."
    ),
)
