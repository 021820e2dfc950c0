"""The 58-528 register's rows: a few set-based statements whatever the period, and the
same lines the register printed when it read each impoundment's record view."""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import event, select
from support import local

from fieldops.db.models import Impoundment
from fieldops.errors import ValidationError
from fieldops.reports.impound_parts import party_line
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import now
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import (
    ReleaseRequest,
    destroy,
    record_death,
    record_escape,
    release,
    transfer,
)
from fieldops.services.impounds import IntakeInput, build_view, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person
from fieldops.services.register_views import RegisterRow, fees_paid_by_kind
from fieldops.services.registers import CHUNK, impound_register_rows, register_rows

AUGUST = (date(2026, 8, 1), date(2026, 8, 31))  # one group of ten
AUTUMN = (date(2026, 9, 1), date(2026, 10, 31))  # twenty groups: 200 impoundments
SHELTER = "Dane County Humane Society"


def _pay(db, actor, imp_id, profile, lines, receipt, payer=None, at=None):
    record_payment(
        db,
        actor,
        imp_id,
        PaymentInput(
            tuple(LineInput(kind, Decimal(amount), text) for kind, amount, text in lines),
            "cash",
            receipt,
            payer_id=payer,
            paid_at=at,
        ),
        profile,
    )


def _pay_quote(db, actor, imp_id, profile, at, to_owner, payer, receipt, extra=()):
    fees = quote(db, imp_id, at, to_owner, profile)
    kinds = ["impound", "boarding"] + ([] if to_owner else ["adoption"])
    lines = [
        (kind, line.amount, "")
        for kind, line in zip(kinds, fees.lines, strict=True)
        if line.amount > 0
    ]
    _pay(db, actor, imp_id, profile, [*lines, *extra], receipt, payer, at)


def _group(db, operator, supervisor, profile, day: date, g: int) -> list[int]:
    """Ten impoundments on ``day``: every disposition, releases with their fees paid,
    corrections of a transfer and of a release, and a repeat impoundment."""
    owner = create_person(
        db,
        operator,
        PersonInput(
            full_name=f"Owner {g} O'Neil & Sons",
            address=f"{g + 1} Elm St",
            city="Madison",
            postal_code="53703",
            phone="608-555-0101",
        ),
    )
    adopter = create_person(
        db, operator, PersonInput(full_name=f"Adopter {g}", address=f"{g + 4} Oak Ave")
    )

    def animal(n, **kw):
        data = {
            "species": "dog",
            "name": f"Dog {g}-{n}",
            "breed": "Beagle",
            "colour": "tan",
            "sex": "male",
            "birth_date": date(2022, 5, 1 + n),
            "owner_id": owner.id,
        }
        data.update(kw)
        return create_animal(db, operator, AnimalInput(**data), today=date(2026, 11, 30))

    def impound(a, at, **kw):
        data = {"officer": "Off. Dana Lee", "reason": "at_large", "found_place": "Elm & 3rd"}
        data.update(kw)
        return intake(
            db, operator, IntakeInput(impounded_at=at, animal_id=a.id, **data), profile
        ).id

    def at(hour, days=0):
        return local(day.year, day.month, day.day, hour) + timedelta(days=days)

    ids = [impound(animal(0, name="", breed=""), at(8))]  # in custody, no name or breed
    reclaimed_animal = animal(1)
    ids.append(impound(reclaimed_animal, at(9)))
    _pay_quote(db, operator, ids[-1], profile, at(9, 2), True, owner.id, f"R-{g}-1")
    release(
        db,
        operator,
        ids[-1],
        ReleaseRequest(
            True, owner.id, at=at(10, 2), rabies_certificate="RV-1", licence_receipt="L-1"
        ),
        profile,
    )
    ids.append(
        impound(
            animal(2, species="cat", breed="Domestic shorthair", altered=False),
            at(10),
            altered=True,
        )
    )  # the officer saw it spayed
    _pay_quote(
        db,
        operator,
        ids[-1],
        profile,
        at(11, 12),
        False,
        adopter.id,
        f"R-{g}-2",
        extra=[("rabies_prepayment", "20.00", "")],
    )
    release(
        db,
        operator,
        ids[-1],
        ReleaseRequest(False, adopter.id, at=at(12, 12), rabies_prepaid_receipt="Vet 4471"),
        profile,
    )
    ids.append(impound(animal(3), at(11)))
    transfer(db, operator, ids[-1], SHELTER, profile, at=at(9, 12))
    ids.append(impound(animal(4, species="other", species_detail="ferret"), at(12)))
    destroy(
        db,
        operator,
        ids[-1],
        profile,
        at=at(10, 12),
        basis="hold_ended",
        decided_by="Off. Dana Lee (officer)",
    )
    ids.append(impound(animal(5), at(13)))
    transfer(db, operator, ids[-1], "Rescue North", profile, at=at(11, 12))
    correct_disposition(
        db,
        supervisor,
        ids[-1],
        kind="died",
        at=at(12, 12),
        profile=profile,
        reason="It died before the transfer",
        notes="Found in kennel",
    )
    ids.append(impound(reclaimed_animal, at(14, 4)))  # again within 60 days: a repeat
    _pay(db, operator, ids[-1], profile, [("other", "5.00", "Collar and lead")], f"R-{g}-6")
    ids.append(impound(animal(7), at(15)))
    _pay_quote(db, operator, ids[-1], profile, at(15, 1), True, owner.id, f"R-{g}-7")
    release(
        db,
        operator,
        ids[-1],
        ReleaseRequest(
            True, owner.id, at=at(16, 1), rabies_certificate="RV-7", licence_receipt="L-7"
        ),
        profile,
    )
    correct_disposition(
        db,
        supervisor,
        ids[-1],
        kind="reclaimed",
        at=at(17, 1),
        profile=profile,
        reason="Released an hour later than entered",
    )
    ids.append(impound(animal(8, species="cat", breed="", colour="black"), at(16)))
    _pay(
        db,
        operator,
        ids[-1],
        profile,
        [("licence", "12.50", ""), ("licence", "0.50", "")],
        f"R-{g}-8",
    )
    record_escape(db, operator, ids[-1], profile, at=at(9, 1), notes="Slipped the lead")
    ids.append(impound(animal(9), at(17), reason="bite", bit_person=True))
    record_death(db, operator, ids[-1], profile, at=at(8, 1), notes="Found dead")
    return ids


@pytest.fixture
def pound(db, operator, supervisor, profile):
    """Ten impoundments in August, 200 in the autumn, and two just outside them."""
    august = _group(db, operator, supervisor, profile, date(2026, 8, 3), 0)
    autumn = [
        i
        for g in range(20)
        for i in _group(db, operator, supervisor, profile, AUTUMN[0] + timedelta(days=2 * g), g + 1)
    ]
    stray = create_animal(
        db, operator, AnimalInput(species="dog", name="Stray"), today=date(2026, 11, 30)
    )
    for at in (local(2026, 7, 31, 22, 30), local(2026, 11, 1, 0, 30)):  # UTC 1 Aug; 1 Nov
        stray_in = intake(
            db,
            operator,
            IntakeInput(
                impounded_at=at,
                animal_id=stray.id,
                officer="Off. Lee",
                reason="at_large",
                found_place="Park St",
            ),
            profile,
        )
        if at.month == 7:  # out again that evening, so it can be impounded in November
            record_escape(
                db, operator, stray_in.id, profile, at=at + timedelta(minutes=45), notes="Gate"
            )
    return {"august": august, "autumn": autumn}


@contextmanager
def counting(db):
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def test_the_register_takes_the_same_few_statements_for_10_and_200_impoundments(db, pound):
    impound_register_rows(db, *AUGUST)  # a first connection may set itself up
    with counting(db) as ten:
        august = impound_register_rows(db, *AUGUST)
    with counting(db) as two_hundred:
        autumn = impound_register_rows(db, *AUTUMN)
    assert sorted(r.id for r in august) == sorted(pound["august"])
    assert sorted(r.id for r in autumn) == sorted(pound["autumn"])
    assert len(two_hundred) == len(ten) <= 4, two_hundred
    # The period's ids reach the other statements as a subquery, not as bound values.
    assert all(len(s) < 2000 for s in two_hundred)


def _old_views(db, period, profile):
    """The register's rows as they were read before: each impoundment's record view."""
    with db.read() as s:
        imps = s.scalars(
            select(Impoundment)
            .where(Impoundment.custody_day >= period[0], Impoundment.custody_day <= period[1])
            .order_by(Impoundment.impounded_at, Impoundment.id)
        ).all()
        return [build_view(s, imp, profile, now()) for imp in imps]


def _printed(line) -> tuple:
    """What the register prints of a line: the same attributes on a record view and a row."""
    d = line.disposition
    return (
        line.id,
        line.impounded_at,
        line.animal.summary,
        None if d is None else (d.kind, d.transfer_to, d.at, party_line(d.recipient)),
        line.fees_paid_total,
    )


def test_the_rows_print_what_the_record_views_gave(db, pound, profile):
    for period in (AUGUST, AUTUMN):
        views = _old_views(db, period, profile)
        rows = impound_register_rows(db, *period)
        assert [_printed(r) for r in rows] == [_printed(v) for v in views]
        assert list(rows) == [RegisterRow.from_view(v) for v in views]
        paid: dict[str, Decimal] = {}
        for line in (x for v in views for p in v.payments for x in p.lines):
            paid[line.kind] = paid.get(line.kind, Decimal("0.00")) + line.amount
        assert dict(fees_paid_by_kind(rows)) == paid
        with db.read() as s:  # read in chunks of 7: the same lines, in the same order
            assert list(register_rows(s.connection(), *period, chunk=7)) == list(rows)
    # The set covers what the register must get right.
    kinds = {r.disposition.kind if r.disposition else None for r in rows}
    assert kinds == {None, "reclaimed", "adopted", "transferred", "euthanized", "died", "escaped"}
    by_id = {r.id: r for r in rows}
    group = pound["autumn"][:10]
    assert by_id[group[5]].disposition.kind == "died"  # the correction is in force
    assert by_id[group[7]].disposition.at == local(2026, 9, 2, 17)  # corrected time
    assert by_id[group[7]].disposition.recipient.full_name == "Owner 1 O'Neil & Sons"
    assert by_id[group[2]].animal.altered is True  # as the officer saw it
    assert by_id[group[2]].animal.approximate_age == "about 4 years"  # on the custody day
    assert dict(by_id[group[8]].fees_paid) == {"licence": Decimal("13.00")}
    assert dict(by_id[group[2]].fees_paid)["rabies_prepayment"] == Decimal("20.00")
    assert [kind for kind, _ in fees_paid_by_kind(rows)] == [
        "impound",
        "boarding",
        "adoption",
        "licence",
        "rabies_prepayment",
        "other",
    ]


def test_a_period_over_a_year_or_backwards_is_refused(db):
    with pytest.raises(ValidationError) as exc:
        impound_register_rows(db, date(2026, 3, 31), date(2026, 3, 1))
    assert [e.field for e in exc.value.errors] == ["period_end"]
    with pytest.raises(ValidationError):
        impound_register_rows(db, date(2025, 1, 1), date(2026, 1, 2))


def test_a_naive_time_never_makes_a_row():
    from fieldops.services.impound_views import AnimalDescription

    animal = AnimalDescription(1, "", "dog", "", "", "", "male", None, "", "", "", "")
    with pytest.raises(ValueError, match="aware"):
        RegisterRow(1, datetime(2026, 3, 2, 12), animal, None)


def test_the_period_is_found_through_its_index_not_by_reading_every_impoundment(sqlite_db):
    with counting(sqlite_db) as statements:
        impound_register_rows(sqlite_db, *AUGUST)
    first = next(s for s in statements if "FROM impoundment" in s)
    with sqlite_db.engine.connect() as conn:
        plan = " ".join(
            str(r[3])
            for r in conn.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {first}",
                (AUGUST[0].isoformat(), AUGUST[1].isoformat(), CHUNK, 0),  # the first chunk
            )
        )
    # (its covering index since the first chunk is chosen before its animals are joined)
    assert re.search(r"USING (COVERING )?INDEX ix_impoundment_custody_day", plan), plan


def test_a_long_period_reads_animals_and_people_in_file_order_first(db):
    """A year's animals and recipients lie anywhere in their tables: on SQLite a
    period of a quarter or more reads both tables through once, in file order,
    before the lines look them up one by one (a year at 1,000,000 read 160,000
    places on disk); a month does not, and a server keeps its own cache."""
    year = (date(2026, 1, 1), date(2026, 12, 31))
    impound_register_rows(db, *AUGUST)  # a first connection may set itself up
    with counting(db) as long:
        impound_register_rows(db, *year)
    with counting(db) as short:
        impound_register_rows(db, *AUGUST)
    counts = [s.split("FROM ")[1].strip() for s in long if s.startswith("SELECT count(")]
    if db.engine.dialect.name == "sqlite":
        assert counts == ["animal", "person"]
        assert long.index(next(s for s in long if "FROM impoundment" in s)) > 2  # first
        assert len(long) == len(short) + 2
    else:
        assert counts == []
        assert len(long) == len(short)
    assert not any(s.startswith("SELECT count(") for s in short)
