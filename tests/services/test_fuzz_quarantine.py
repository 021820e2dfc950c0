"""Hypothesis fuzzes every quarantine verb, the quarantine correction and the clinic
register (issue 13): only a ValidationError (or a NotFoundError, for a quarantine or
clinic id no record has) or success comes out, and what is accepted reads back from the
database unchanged, on SQLite and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import itertools
from datetime import UTC, timedelta

import pytest
from fuzz_strategies import (
    FUZZ_FEW,
    good_amount,
    good_text,
    hostile_day,
    hostile_id,
    hostile_instant,
    hostile_money,
    hostile_text,
    only_refusals,
    recent,
    records,
)
from hypothesis import example, given
from hypothesis import strategies as st
from quarantine_support import PROFILE, bite_input, day, days_ago
from sqlalchemy import select

from fieldops.db.models import Clinic, QuarantineEvent, QuarantineExam
from fieldops.errors import NotFoundError
from fieldops.services import quarantine as qs
from fieldops.services import validate as v
from fieldops.services.animals import AnimalInput, create_animal

_DOGS = itertools.count()


def _utc(at):
    return None if at is None else at.astimezone(UTC)


@pytest.fixture
def clinic(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))


@pytest.fixture
def new_quarantine(db, officer, operator, owner, clinic, today, vaccinate):
    """``new_quarantine(bitten_days_ago)``: a fresh dog's clinic quarantine (each example
    gets its own, so a verb that closes one leaves the next example an open one)."""

    def _new(bitten_days_ago: int = 3, *, home: bool = False):
        dog = create_animal(
            db,
            operator,
            AnimalInput(species="dog", name=f"Rex {next(_DOGS)}", owner_id=owner.id),
            today=today,
        )
        proof = {}
        if home:  # vaccinated: a home quarantine (58-527(b))
            vaccinate(dog.id, on=day(300), until=day(-400))
            proof = {
                "rabies_certificate": "RV-77",
                "rabies_vaccinated_on": day(300),
                "rabies_expires_on": day(-400),
            }
        inp = bite_input(days_ago(bitten_days_ago), animal_id=dog.id, clinic_id=clinic.id, **proof)
        return qs.report_bite(db, officer, inp, PROFILE)

    return _new


def _event(db, bite_id, kind):
    with db.read() as s:
        rows = s.scalars(
            select(QuarantineEvent)
            .where(QuarantineEvent.bite_report_id == bite_id, QuarantineEvent.kind == kind)
            .order_by(QuarantineEvent.id)
        ).all()
    assert rows, kind
    return rows[-1]  # the newest: the one just recorded


def _none_recorded(db, bite_id):
    """A refusal wrote nothing: the fresh quarantine has no event at all."""
    with db.read() as s:
        assert not s.scalars(
            select(QuarantineEvent.id).where(QuarantineEvent.bite_report_id == bite_id)
        ).all()


def _same_text(row, fields, one_line=("who", "citation")):
    for f in one_line:
        if f in fields:
            assert getattr(row, f) == v.clean(fields[f]), f
    if "notes" in fields:
        assert row.notes == fields["notes"].strip()


# A verb's own hostile fields, plus the quarantine id; the good "at" is after the order.
AT = {"at": recent(60 * 40)}
BAD_AT = {"at": hostile_instant}
NOTES = {"notes": good_text}
BAD_NOTES = {"notes": hostile_text}
QID = {"qid": st.just("own")}
BAD_QID = {"qid": hostile_id}


def _qid(r, fields):
    return r.quarantine_id if fields["qid"] == "own" else fields["qid"]


VERBS = {
    "delivered": (
        lambda db, a, r, f: qs.record_delivery(db, a, _qid(r, f), f["at"], PROFILE, f["notes"]),
        {**AT, **NOTES, **QID},
        {**BAD_AT, **BAD_NOTES, **BAD_QID},
    ),
    "signs_of_rabies": (
        lambda db, a, r, f: qs.record_signs_of_rabies(
            db, a, _qid(r, f), f["at"], f["who"], PROFILE, f["notes"]
        ),
        {**AT, **NOTES, **QID, "who": good_text},
        {**BAD_AT, **BAD_NOTES, **BAD_QID, "who": hostile_text},
    ),
    "escaped": (
        lambda db, a, r, f: qs.record_escape(db, a, _qid(r, f), f["at"], PROFILE, f["notes"]),
        {**AT, **NOTES, **QID},
        {**BAD_AT, **BAD_NOTES, **BAD_QID},
    ),
    "died": (
        lambda db, a, r, f: qs.record_death(
            db, a, _qid(r, f), f["kind"], f["at"], PROFILE, f["notes"]
        ),
        {**AT, **NOTES, **QID, "kind": st.sampled_from(["died", "euthanized"])},
        {**BAD_AT, **BAD_NOTES, **BAD_QID, "kind": hostile_text},
    ),
    "broken_home": (
        lambda db, a, r, f: qs.record_broken_home(
            db,
            a,
            _qid(r, f),
            f["at"],
            r.clinic_id if f["clinic"] == "own" else f["clinic"],
            PROFILE,
            citation=f["citation"],
            notes=f["notes"],
        ),
        {**AT, **NOTES, **QID, "citation": good_text, "clinic": st.just("own")},
        {**BAD_AT, **BAD_NOTES, **BAD_QID, "citation": hostile_text, "clinic": hostile_id},
    ),
}


class _Reported:
    """The report and the clinic its quarantine is at, for the verbs' lambdas."""

    def __init__(self, reported, clinic_id):
        self.quarantine_id = reported.quarantine_id
        self.bite_report_id = reported.bite_report_id
        self.clinic_id = clinic_id


@pytest.mark.parametrize("kind", sorted(VERBS))
def test_every_quarantine_event_verb_is_fuzzed(db, officer, new_quarantine, clinic, kind):
    call, good, bad = VERBS[kind]
    accepted = []

    @FUZZ_FEW
    @given(fields=records(good, bad))
    def run(fields):
        r = _Reported(new_quarantine(home=kind == "broken_home"), clinic.id)
        done = only_refusals(lambda: call(db, officer, r, fields), NotFoundError)
        if done is None:
            if fields["qid"] == "own":
                _none_recorded(db, r.bite_report_id)
            return
        row = _event(db, done.bite_report_id, fields.get("kind", kind))
        assert _utc(row.at) == _utc(fields["at"])
        _same_text(row, fields)
        if kind == "broken_home":
            assert row.clinic_id == clinic.id
        accepted.append(done)

    run()
    assert accepted, "the fuzz never reached the database"


@FUZZ_FEW
@given(
    fields=records(
        {
            "examined_on": st.integers(0, 3).map(day),
            "veterinarian": good_text,
            "finding": st.sampled_from(["no_signs", "signs", "died"]),
            "fee": good_amount,
            "clinic_id": st.none(),
            "qid": st.just("own"),
        },
        {
            "examined_on": hostile_day,
            "veterinarian": hostile_text,
            "finding": hostile_text,
            "fee": st.one_of(hostile_money, st.just(True), st.just(1.5)),
            "clinic_id": hostile_id,
            "qid": hostile_id,
        },
    )
)
def test_an_exam_is_refused_or_read_back_unchanged(db, officer, new_quarantine, fields):
    from fieldops.errors import Collector

    r = new_quarantine()
    qid = _qid(r, fields)
    inp = qs.ExamInput(
        fields["examined_on"],
        fields["veterinarian"],
        fields["finding"],
        fields["fee"],
        fields["clinic_id"],
    )
    done = only_refusals(lambda: qs.record_exam(db, officer, qid, inp, PROFILE), NotFoundError)
    if done is None:
        return
    with db.read() as s:
        row = s.scalars(
            select(QuarantineExam)
            .where(QuarantineExam.quarantine_id == done.quarantine_id)
            .order_by(QuarantineExam.id.desc())
        ).first()
    assert row is not None
    assert (row.examined_on, row.veterinarian, row.finding, row.fee, row.clinic_id) == (
        fields["examined_on"],
        v.clean(fields["veterinarian"]),
        fields["finding"],
        v.money(Collector(), "fee", fields["fee"]),
        fields["clinic_id"],
    )


@FUZZ_FEW
@given(
    fields=records(
        {
            "new_last_day": st.integers(8, 60).map(lambda n: day(-n)),
            "veterinarian": good_text,
            "notes": good_text,
        },
        {"new_last_day": hostile_day, "veterinarian": hostile_text, "notes": hostile_text},
    )
)
def test_an_extension_is_refused_or_read_back_unchanged(db, officer, new_quarantine, fields):
    r = new_quarantine()
    done = only_refusals(
        lambda: qs.extend_period(
            db,
            officer,
            r.quarantine_id,
            fields["new_last_day"],
            fields["veterinarian"],
            PROFILE,
            fields["notes"],
        )
    )
    if done is None:
        _none_recorded(db, r.bite_report_id)
        return
    row = _event(db, r.bite_report_id, "extended")
    assert (row.new_last_day, row.who, row.notes) == (
        fields["new_last_day"],
        v.clean(fields["veterinarian"]),
        fields["notes"].strip(),
    )


@FUZZ_FEW
@given(
    fields=records(
        {"at": recent(60 * 40), "who": good_text, "notes": good_text},
        {"at": hostile_instant, "who": hostile_text, "notes": hostile_text},
    )
)
def test_a_specimen_sent_is_refused_or_read_back_unchanged(db, officer, new_quarantine, fields):
    from fieldops.services.context import now

    r = new_quarantine()
    qs.record_death(db, officer, r.quarantine_id, "died", now() - timedelta(hours=45), PROFILE)
    done = only_refusals(
        lambda: qs.record_specimen_sent(
            db, officer, r.quarantine_id, fields["at"], fields["who"], PROFILE, fields["notes"]
        )
    )
    with db.read() as s:
        sent = s.scalars(
            select(QuarantineEvent).where(
                QuarantineEvent.bite_report_id == r.bite_report_id,
                QuarantineEvent.kind == "specimen_sent",
            )
        ).all()
    if done is None:
        assert sent == []
        return
    (row,) = sent
    assert _utc(row.at) == _utc(fields["at"])
    _same_text(row, fields)


@FUZZ_FEW
@given(
    fields=records(
        {"at": recent(60 * 40), "who": good_text, "notes": good_text},
        {"at": hostile_instant, "who": hostile_text, "notes": hostile_text},
    )
)
def test_a_certified_release_is_refused_or_read_back_unchanged(
    db, officer, new_quarantine, clinic, fields
):
    from quarantine_support import exam

    r = new_quarantine(bitten_days_ago=14)
    for n in (14, 9, 4):
        exam(db, officer, r.quarantine_id, day(n), clinic=clinic.id)
    done = only_refusals(
        lambda: qs.release_certified(
            db, officer, r.quarantine_id, fields["at"], fields["who"], PROFILE, fields["notes"]
        )
    )
    if done is None:
        _none_recorded(db, r.bite_report_id)
        return
    row = _event(db, r.bite_report_id, "released")
    assert _utc(row.at) == _utc(fields["at"])
    _same_text(row, fields)


@FUZZ_FEW
@given(
    fields=records(
        {"received_on": st.integers(0, 2).map(day), "notes": good_text},
        {"received_on": hostile_day, "notes": hostile_text},
    )
)
def test_a_certificate_received_is_refused_or_read_back_unchanged(
    db, officer, new_quarantine, fields
):
    r = new_quarantine()
    done = only_refusals(
        lambda: qs.record_certificate_received(
            db, officer, r.quarantine_id, fields["received_on"], PROFILE, fields["notes"]
        )
    )
    if done is None:
        _none_recorded(db, r.bite_report_id)
        return
    row = _event(db, r.bite_report_id, "certificate_received")
    assert (row.received_on, row.notes) == (fields["received_on"], fields["notes"].strip())


@FUZZ_FEW
@given(
    fields=records(
        {"at": recent(60 * 40), "who": good_text, "notes": good_text, "bite": st.just("own")},
        {"at": hostile_instant, "who": hostile_text, "notes": hostile_text, "bite": hostile_id},
    )
)
def test_a_referral_is_refused_or_read_back_unchanged(db, officer, fields):
    inp = bite_input(
        days_ago(3),
        species="other",
        animal_description="a raccoon",
        owner_unknown=True,
        ordered_at=None,
    )
    reported = qs.report_bite(db, officer, inp, PROFILE)
    bite_id = reported.bite_report_id if fields["bite"] == "own" else fields["bite"]
    done = only_refusals(
        lambda: qs.record_referral_sent(
            db, officer, bite_id, fields["at"], fields["who"], fields["notes"]
        ),
        NotFoundError,
    )
    if done is None:
        _none_recorded(db, reported.bite_report_id)
        return
    row = _event(db, done.bite_report_id, "referral_sent")
    assert _utc(row.at) == _utc(fields["at"])
    _same_text(row, fields)


_CLINICS = itertools.count()


@FUZZ_FEW
@given(
    fields=records(
        {
            "name": good_text,
            "address": good_text,
            "phone": st.sampled_from(["", "608-555-0100"]),
            "licensed": st.booleans(),
            "clinic": st.just("own"),
            "version": st.just("own"),
        },
        {
            "name": hostile_text,
            "address": hostile_text,
            "phone": hostile_text,
            "licensed": st.just(True),
            "clinic": hostile_id,
            "version": hostile_id,
        },
    )
)
def test_a_clinic_is_refused_or_read_back_unchanged(db, supervisor, fields):
    from fieldops.errors import StaleRecordError

    name = f"{fields['name']} {next(_CLINICS)}"  # no example's name is another's duplicate
    inp = qs.ClinicInput(name, fields["address"], fields["phone"], fields["licensed"])
    made = only_refusals(lambda: qs.create_clinic(db, supervisor, inp))
    if made is None:
        return
    renamed = qs.ClinicInput(f"{name} (renamed)", fields["address"], fields["phone"])
    clinic_id = made.id if fields["clinic"] == "own" else fields["clinic"]
    version = made.version if fields["version"] == "own" else fields["version"]
    # NotFoundError: an id no clinic has; StaleRecordError: a version not the clinic's.
    changed = only_refusals(
        lambda: qs.update_clinic(db, supervisor, clinic_id, version, renamed),
        NotFoundError,
        StaleRecordError,
    )
    with db.read() as s:
        row = s.get(Clinic, made.id)
        if changed is None:
            assert (row.name, row.address, row.phone) == (
                v.clean(name),
                v.clean(fields["address"]),
                v.clean(fields["phone"]),
            )
            return
        assert changed.id == clinic_id
        if clinic_id == made.id:
            assert (row.name, row.address, row.phone, row.licensed) == (
                v.clean(renamed.name),
                v.clean(renamed.address),
                v.clean(renamed.phone),
                True,
            )


@example(fields={"target": ("exam", "fee"), "target_id": 2**31, "new_value": "1", "reason": "x"})
@FUZZ_FEW
@given(
    fields=st.fixed_dictionaries(
        {
            "target": st.sampled_from(
                [
                    ("bite_report", "place"),
                    ("bite_report", "notes"),
                    ("bite_report", "bitten_at"),
                    ("exam", "veterinarian"),
                    ("exam", "fee"),
                    ("exam", "examined_on"),
                    ("exam", "finding"),
                    ("event", "who"),
                    ("event", "notes"),
                    ("nothing", "place"),
                    ("exam", "recorded_by"),
                ]
            ),
            "target_id": st.one_of(st.just("own"), st.just("own"), hostile_id),
            "new_value": st.one_of(
                good_text, hostile_text, good_amount, st.integers(0, 3).map(lambda n: str(day(n)))
            ),
            "reason": st.one_of(good_text, good_text, hostile_text),
        }
    )
)
def test_a_quarantine_correction_is_refused_or_kept_as_given(
    db, supervisor, officer, new_quarantine, corrected_case, fields
):
    from fieldops.db.models import QuarantineCorrection

    target, field = fields["target"]
    own = corrected_case.get(target, 1)
    target_id = own if fields["target_id"] == "own" else fields["target_id"]
    bite_id = corrected_case["bite_report"]
    done = only_refusals(
        lambda: qs.correct_record(
            db,
            supervisor,
            bite_id,
            target,
            target_id,
            field,
            fields["new_value"],
            fields["reason"],
            PROFILE,
        )
    )
    if done is None:
        return
    with db.read() as s:
        fix = s.scalars(
            select(QuarantineCorrection).order_by(QuarantineCorrection.id.desc())
        ).first()
    assert fix is not None
    assert (fix.target, fix.target_id, fix.field, fix.reason) == (
        target,
        target_id,
        field,
        v.clean(fields["reason"]),
    )
    if field in ("place", "veterinarian", "who"):
        assert fix.new_value == v.clean(fields["new_value"])
    elif field == "notes":
        assert fix.new_value == fields["new_value"].strip()


@pytest.fixture
def corrected_case(db, officer, new_quarantine, clinic):
    """One quarantine with an exam and an event, the correction fuzz's targets."""
    from quarantine_support import exam

    r = new_quarantine()
    exam(db, officer, r.quarantine_id, day(3), clinic=clinic.id)
    qs.record_signs_of_rabies(db, officer, r.quarantine_id, days_ago(1), "Dr. Okafor", PROFILE)
    with db.read() as s:
        exam_id = s.scalar(
            select(QuarantineExam.id).where(QuarantineExam.quarantine_id == r.quarantine_id)
        )
        event_id = s.scalar(
            select(QuarantineEvent.id).where(QuarantineEvent.bite_report_id == r.bite_report_id)
        )
    return {"bite_report": r.bite_report_id, "exam": exam_id, "event": event_id}
