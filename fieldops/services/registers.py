"""Data for the supervisor's record reports (city code 58-528).

The register's rows come from three set-based statements over the period,
whatever its length: the impoundments with their animals, the disposition in
force of each with the person it went to, and the fees paid by kind. (Built
one impoundment at a time through the record view it took about eight
statements a row: 18 s for a register of 10,361 impoundments.)
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import Decimal

from sqlalchemy import func, select, type_coerce

from fieldops.db.cancel import Cancelled, cancellable
from fieldops.db.engine import Database
from fieldops.db.models import Animal, Disposition, Impoundment, Payment, PaymentLine, Person
from fieldops.db.types import Money
from fieldops.errors import Collector
from fieldops.modules import ReportKind, ReportOutput, ReportRequest, ReportTable
from fieldops.services.impounds import animal_description, party_view
from fieldops.services.register_views import RegisterDisposition, RegisterRow, by_kind

MAX_PERIOD_DAYS = 366


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
    in order of impoundment (58-528; RULES.md section 2, "The record").

    Three statements whatever the period: the statement count never grows with it.
    The period's impoundments reach the other two as a subquery, never as a list
    of bound ids (SQLite limits those).
    """
    _check_period(period_start, period_end)
    in_period = (Impoundment.custody_day >= period_start, Impoundment.custody_day <= period_end)
    period_ids = select(Impoundment.id).where(*in_period)
    # Dispositions are append-only and a correction is a newer row naming the one in
    # force, so the newest row of an impoundment is the one no correction supersedes.
    current_ids = (
        select(func.max(Disposition.id))
        .where(Disposition.impoundment_id.in_(period_ids))
        .group_by(Disposition.impoundment_id)
    )
    with db.read() as s, cancellable(s):  # a Cancel on the Reports page stops the reads
        conn = s.connection()  # column rows straight from Core: no ORM loading per row
        impoundments = conn.execute(
            select(
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
            .join(Animal, Animal.id == Impoundment.animal_id)
            .where(*in_period)
            .order_by(Impoundment.impounded_at, Impoundment.id)
        ).all()
        dispositions = conn.execute(
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
        fees = conn.execute(
            select(
                Payment.impoundment_id,
                PaymentLine.kind,
                type_coerce(func.sum(PaymentLine.amount), Money),
            )
            .join(Payment, Payment.id == PaymentLine.payment_id)
            .where(Payment.impoundment_id.in_(period_ids))
            .group_by(Payment.impoundment_id, PaymentLine.kind)
        ).all()
    current: dict[int, RegisterDisposition] = {}
    for imp_id, kind, at, transfer_to, person_id, *person in dispositions:
        recipient = None if person_id is None else party_view(person_id, *person)
        current[imp_id] = RegisterDisposition(kind, at, recipient, transfer_to)
    paid: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for imp_id, kind, amount in fees:
        paid[imp_id][kind] = amount
    rows = []
    for (
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
    ) in impoundments:
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
        fees_of = paid.get(imp_id)
        rows.append(
            RegisterRow(
                imp_id,
                impounded_at,
                animal,
                current.get(imp_id),
                by_kind(fees_of) if fees_of else (),
            )
        )
    return tuple(rows)


# ------------------------------------------------------------------ the ReportKind


def register_report(request: ReportRequest) -> ReportOutput:
    """The 58-528 register for the request's period: its rows (the CSV) and its PDF.

    The rows are read in one read transaction (``impound_register_rows``); a bad
    period is a ``ValidationError`` on ``period_start``/``period_end``. The
    public-records copy withholds each recipient's address and phone
    (``fieldops.reports.register.REGISTER_WITHHELD``).
    """
    from fieldops.reports.register import (
        REGISTER_COLUMNS,
        REGISTER_WITHHELD,
        impound_register,
        redact_row,
        register_cells,
    )

    def step(done: int) -> None:
        if request.cancelled():
            raise Cancelled("the register is no longer wanted")
        request.progress(done, 3)

    step(0)
    rows = impound_register_rows(request.db, request.start, request.end)
    step(1)
    tz = request.profile.timezone
    shown = [redact_row(r) for r in rows] if request.redacted else list(rows)
    withheld = REGISTER_WITHHELD if request.redacted else ()
    table = ReportTable(REGISTER_COLUMNS, [register_cells(r, tz) for r in shown], withheld)
    step(2)
    pdf = impound_register(
        rows,
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
    return ReportOutput(table, pdf)


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
