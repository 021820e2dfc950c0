"""Hypothesis fuzzes the pound's other inputs (issue 13): the dispositions other than a
transfer, their correction, an intake's correction, the report request, and an id no
INTEGER column holds. Only a ValidationError (or another refusal in words, named where
it is allowed) or success comes out; what is accepted reads back unchanged, on SQLite
and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, timedelta

import pytest
from fuzz_strategies import (
    FUZZ,
    FUZZ_FEW,
    good_text,
    hostile_day,
    hostile_id,
    hostile_instant,
    hostile_text,
    only_refusals,
    recent,
    records,
)
from hypothesis import example, given
from hypothesis import strategies as st
from sqlalchemy import select

from fieldops.db.models import Animal, AuditEvent, Disposition, Impoundment, Person, Quarantine
from fieldops.errors import NotFoundError, StaleRecordError, UserError
from fieldops.rules.release import EUTHANASIA_BASES
from fieldops.services import validate as v
from fieldops.services.context import fetch, now
from fieldops.services.disposition_corrections import correct_disposition
from fieldops.services.dispositions import (
    AlreadyDisposedError,
    ReleaseRequest,
    RequirementsNotMet,
    destroy,
    release,
    release_check,
)
from fieldops.services.dispositions import record_death as pound_death
from fieldops.services.dispositions import record_escape as pound_escape
from fieldops.services.impound_rows import load_impoundment
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.intake_corrections import IntakeDetails, correct_intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.reports_run import export, produce, record_printed, report_names

OUT_OF_RANGE = [0, -1, 2**31, 2**31 + 7, 2**63, 2**70, True, None, "1"]


def test_an_id_no_integer_column_holds_is_not_found_before_any_query(db):
    for model in (Animal, Person, Impoundment, Quarantine):
        for row_id in OUT_OF_RANGE:
            with db.read() as s, pytest.raises(NotFoundError):
                fetch(s, model, row_id)


def test_the_largest_integer_id_is_looked_up_and_not_found(db, rex):
    with db.read() as s:
        with pytest.raises(NotFoundError):
            fetch(s, Animal, 2**31 - 1)
        assert fetch(s, Animal, rex.id).id == rex.id


@FUZZ
@given(row_id=hostile_id)
@example(row_id=2**31)
@example(row_id=2**70)
def test_loading_an_impoundment_by_any_id_finds_it_or_says_not_found(db, operator, rex, row_id):
    with db.read() as s:
        try:
            imp = load_impoundment(s, row_id)
        except NotFoundError:
            return
    assert imp.id == row_id


def _utc(at):
    return None if at is None else at.astimezone(UTC)


def _dispositions(db, impoundment_id):
    with db.read() as s:
        return s.scalars(
            select(Disposition)
            .where(Disposition.impoundment_id == impoundment_id)
            .order_by(Disposition.id)
        ).all()


@pytest.fixture
def held_rex(db, supervisor, profile, another_rex):
    """``held_rex()``: a Rex of the example's own, impounded 30 days ago (the hold over)."""

    def _held():
        inp = IntakeInput(
            impounded_at=now() - timedelta(days=30),
            animal_id=another_rex().id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm",
        )
        return intake(db, supervisor, inp, profile)

    return _held


ID = {"imp": st.just("own")}
BAD_ID = {"imp": hostile_id}
WHEN = {"at": st.one_of(st.none(), recent(60 * 24 * 20)), "notes": good_text}
BAD_WHEN = {"at": hostile_instant, "notes": hostile_text}

SIMPLE = {
    "euthanized": (
        lambda db, a, i, p, f: destroy(
            db,
            a,
            i,
            p,
            at=f["at"],
            basis=f["basis"],
            decided_by=f["decided_by"],
            notes=f["notes"],
        ),
        {**ID, **WHEN, "basis": st.sampled_from(sorted(EUTHANASIA_BASES)), "decided_by": good_text},
        {**BAD_ID, **BAD_WHEN, "basis": hostile_text, "decided_by": hostile_text},
    ),
    "died": (
        lambda db, a, i, p, f: pound_death(db, a, i, p, at=f["at"], notes=f["notes"]),
        {**ID, **WHEN},
        {**BAD_ID, **BAD_WHEN},
    ),
    "escaped": (
        lambda db, a, i, p, f: pound_escape(db, a, i, p, at=f["at"], notes=f["notes"]),
        {**ID, **WHEN},
        {**BAD_ID, **BAD_WHEN},
    ),
}


@pytest.mark.parametrize("kind", sorted(SIMPLE))
def test_every_other_disposition_is_refused_or_read_back_unchanged(
    db, supervisor, profile, held_rex, kind
):
    call, good, bad = SIMPLE[kind]
    accepted = []

    @FUZZ_FEW
    @given(fields=records(good, bad))
    def run(fields):
        imp = held_rex()
        imp_id = imp.id if fields["imp"] == "own" else fields["imp"]
        # AlreadyDisposedError: a fuzzed id that names an impoundment already closed.
        done = only_refusals(
            lambda: call(db, supervisor, imp_id, profile, fields),
            NotFoundError,
            AlreadyDisposedError,
        )
        if done is None:
            return
        (row,) = _dispositions(db, done.id)
        assert (row.kind, row.notes) == (kind, fields["notes"].strip())
        if fields["at"] is not None:
            assert _utc(row.at) == _utc(fields["at"])
        if kind == "euthanized":
            assert (row.euthanasia_basis, row.decided_by) == (
                fields["basis"],
                v.clean(fields["decided_by"]),
            )
        accepted.append(done)

    run()
    assert accepted, "the fuzz never reached the database"


@FUZZ_FEW
@given(
    fields=records(
        {
            "recipient": st.just("owner"),
            "at": st.one_of(st.none(), recent(60 * 24 * 20)),
            "rabies_certificate": st.just(""),
            "rabies_prepaid_receipt": good_text,
            "licence_receipt": good_text,
            "notes": good_text,
            "reason": good_text,
        },
        {
            "recipient": hostile_id,
            "at": hostile_instant,
            "rabies_certificate": hostile_text,
            "rabies_prepaid_receipt": hostile_text,
            "licence_receipt": hostile_text,
            "notes": hostile_text,
            "reason": hostile_text,
        },
    )
)
def test_a_release_is_refused_or_read_back_unchanged(
    db, supervisor, profile, held_rex, owner, fields
):
    """RequirementsNotMet is a refusal in words: a hostile receipt meets no requirement."""
    imp = held_rex()
    fees = quote(db, imp.id, now(), True, profile)
    paid = PaymentInput((LineInput("impound", fees.total),), "cash", f"R-{imp.id}")
    record_payment(db, supervisor, imp.id, paid, profile)
    recipient = owner.id if fields["recipient"] == "owner" else fields["recipient"]
    plain = ReleaseRequest(True, owner.id)
    # The fees paid, a supervisor overrides whatever else the records do not meet, with a
    # fuzzed reason, so the release reaches the database as often as it is refused.
    checked = release_check(db, imp.id, plain, profile)
    unmet = [x.requirement.code for x in checked if x.requirement.overridable and not x.met]
    req = ReleaseRequest(
        True,
        recipient,
        at=fields["at"],
        rabies_certificate=fields["rabies_certificate"],
        rabies_prepaid_receipt=fields["rabies_prepaid_receipt"],
        licence_receipt=fields["licence_receipt"],
        overrides=dict.fromkeys(unmet, fields["reason"]),
        notes=fields["notes"],
    )
    done = only_refusals(lambda: release(db, supervisor, imp.id, req, profile), RequirementsNotMet)
    if done is None:
        return
    (row,) = _dispositions(db, imp.id)
    assert (row.kind, row.recipient_id, row.notes) == (
        "reclaimed",
        owner.id,
        fields["notes"].strip(),
    )
    if fields["at"] is not None:
        assert _utc(row.at) == _utc(fields["at"])


@example(
    fields={
        "kind": "escaped",
        "at": now() - timedelta(minutes=5),
        "reason": "wrong time",
        "notes": " ",  # once stored as the notes, losing the ones corrected
        "transfer_to": "",
        "corrects": "own",
    }
)
@FUZZ_FEW
@given(
    fields=records(
        {
            "kind": st.sampled_from(["escaped", "died", "transferred", "euthanized"]),
            "at": recent(60 * 24 * 20),
            "reason": good_text,
            "notes": good_text,
            "transfer_to": good_text,
            "corrects": st.just("own"),
        },
        {
            "kind": st.one_of(hostile_text, st.just("reclaimed")),
            "at": st.one_of(hostile_instant, st.just(now() - timedelta(days=40))),
            "reason": hostile_text,
            "notes": hostile_text,
            "transfer_to": hostile_text,
            "corrects": hostile_id,
        },
    )
)
def test_a_disposition_correction_is_refused_or_read_back_unchanged(
    db, supervisor, profile, held_rex, fields
):
    """StaleRecordError: the form's ``corrects_id`` is not the disposition in force."""
    imp = held_rex()
    pound_escape(db, supervisor, imp.id, profile, notes="gate left open")
    (old,) = _dispositions(db, imp.id)
    corrects = old.id if fields["corrects"] == "own" else fields["corrects"]
    done = only_refusals(
        lambda: correct_disposition(
            db,
            supervisor,
            imp.id,
            kind=fields["kind"],
            at=fields["at"],
            reason=fields["reason"],
            profile=profile,
            notes=fields["notes"],
            transfer_to=fields["transfer_to"],
            corrects_id=corrects,
        ),
        StaleRecordError,
    )
    rows = _dispositions(db, imp.id)
    if done is None:
        assert [r.id for r in rows] == [old.id]
        return
    new = rows[-1]
    assert (new.kind, new.corrects_id, new.correction_reason, _utc(new.at)) == (
        fields["kind"],
        old.id,
        v.clean(fields["reason"]),
        _utc(fields["at"]),
    )
    assert new.notes == (fields["notes"].strip() or old.notes)
    if fields["kind"] == "transferred":
        assert new.transfer_to == v.clean(fields["transfer_to"])


@FUZZ_FEW
@given(
    fields=records(
        {
            "impounded_at": st.none(),
            "found_place": good_text,
            "found_at": st.none(),
            "officer": good_text,
            "reason_detail": good_text,
            "injuries": good_text,
            "name": good_text,
            "breed": good_text,
            "markings": good_text,
            "reason": good_text,
        },
        {
            "impounded_at": hostile_instant,
            "found_place": hostile_text,
            "found_at": hostile_instant,
            "officer": hostile_text,
            "reason_detail": hostile_text,
            "injuries": hostile_text,
            "name": hostile_text,
            "breed": hostile_text,
            "markings": hostile_text,
            "reason": hostile_text,
        },
    )
)
def test_an_intake_correction_is_refused_or_read_back_unchanged(
    db, supervisor, profile, held_rex, fields
):
    imp = held_rex()
    original = IntakeDetails.of(imp)
    changes = {k: fields[k] for k in fields if k != "reason" and fields[k] is not None}
    corrected = replace(original, **changes)
    done = only_refusals(
        lambda: correct_intake(
            db, supervisor, imp.id, original, corrected, fields["reason"], profile
        )
    )
    with db.read() as s:
        row = s.get(Impoundment, imp.id)
        animal = s.get(Animal, row.animal_id)
        stored = (
            _utc(row.impounded_at),
            row.found_place,
            _utc(row.found_at),
            row.officer,
            row.reason_detail,
            row.injuries,
            animal.name,
            animal.breed,
            animal.markings,
        )
    want = corrected if done is not None else original
    assert stored == (
        _utc(want.impounded_at),
        v.clean(want.found_place),
        _utc(want.found_at),
        v.clean(want.officer),
        v.clean(want.reason_detail),
        want.injuries.strip(),
        v.clean(want.name),
        v.clean(want.breed),
        want.markings.strip(),
    )
    pound_escape(db, supervisor, imp.id, profile, notes="gate")


@example(
    fields={
        "name": "impound-register",
        "start": None,  # once a TypeError inside the report: now "the first day is required"
        "end": date(2026, 6, 1),
        "printed_at": None,
        "file": "register.pdf",
        "printer": "",
    }
)
@FUZZ_FEW
@given(
    fields=records(
        {
            "name": st.sampled_from(report_names()),
            "start": st.dates(date(2026, 1, 1), date(2026, 6, 1)),
            "end": st.dates(date(2026, 6, 1), date(2026, 11, 30)),
            "printed_at": st.none(),
            "file": st.sampled_from(["register.pdf", "Zoë 🐕 report.csv", "שלום.pdf"]),
            "printer": st.sampled_from(["", "Front desk HP"]),
        },
        {
            "name": hostile_text,
            "start": hostile_day,
            "end": hostile_day,
            "printed_at": hostile_instant,
            "file": st.one_of(
                hostile_text.map(lambda t: t + ".pdf"), hostile_text, st.just("x" * 300 + ".csv")
            ),
            "printer": hostile_text,
        },
    )
)
def test_a_report_request_is_refused_or_written(db, supervisor, profile, tmp_path, fields):
    """UserError: a report name or file suffix no report has is refused in those words."""
    produced = only_refusals(
        lambda: produce(
            db,
            supervisor,
            fields["name"],
            fields["start"],
            fields["end"],
            profile,
            printed_at=fields["printed_at"],
        ),
        UserError,
    )
    if produced is None:
        return
    assert (produced.start, produced.end) == (fields["start"], fields["end"])
    name = fields["file"]
    if "/" in name or "\\" in name or name.strip(". ") == "":
        name = "report.pdf"  # a folder in the name is the save dialog's business, not fuzzed
    path = tmp_path / name
    written = only_refusals(lambda: export(db, supervisor, produced, path), UserError)
    if written is not None:
        assert written.read_bytes()
    printed = only_refusals(
        lambda: record_printed(db, supervisor, produced, fields["printer"]) or "printed"
    )
    with db.read() as s:
        last = s.scalars(select(AuditEvent).order_by(AuditEvent.id.desc())).first()
    if printed is None and fields["printer"]:
        assert last.after.get("printer") != fields["printer"]
    elif last.after.get("printer") is not None:
        assert last.after["printer"] == (fields["printer"] or "default")
