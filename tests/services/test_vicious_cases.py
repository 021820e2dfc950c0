"""Vicious-animal cases (58-524) through the services: declaration or refusal, the notice and
its deadline, the outcome and next steps, a withdrawal, the append-only rows, the history."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import func, select, text
from support import local
from vicious_cases import (
    HOSTILE,
    declaration,
    declared,
    no_exceptions,
    owner_and_dog,
    with_step,
)

from fieldops.db.models import AuditEvent, ViciousCase, ViciousDeclaration
from fieldops.errors import PermissionDeniedError, StaleRecordError, ValidationError
from fieldops.rules import vicious as rules
from fieldops.services.history import record_history
from fieldops.services.vicious.cases import load_case
from fieldops.services.vicious.declaring import Finding, declare
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import (
    EndingInput,
    OutcomeInput,
    StepInput,
    add_step,
    complete_step,
    end_declaration,
    record_outcome,
)


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12): the
    tests here record them as one."""
    return officer


@pytest.fixture
def dog(db, operator, today):
    return owner_and_dog(db, operator, today)[1]


def count(db, model):
    with db.read() as s:
        return s.query(model).count()


def test_refused_when_an_exception_applies_and_the_refusal_is_recorded(db, operator, profile, dog):
    view = declared(
        db,
        operator,
        profile,
        dog.id,
        applies={"provoked_by_person": "The victim hit the dog with a stick first."},
    )
    assert view.status == "refused" and not view.declared
    assert any("58-524(a)(2)b(iii)" in r for r in view.refusal_reasons)
    assert [f.code for f in view.findings if f.applies] == ["provoked_by_person"]
    with db.read() as s:
        ev = s.scalars(select(AuditEvent).where(AuditEvent.entity == "vicious_case")).one()
    assert ev.action == "refuse_declaration" and "cannot be declared vicious" in ev.reason
    lines = record_history(db, "vicious_case", view.id, profile.timezone)
    assert lines[0].what == "Declaration refused" and "Rex" in lines[0].sentence


def test_missing_findings_grounds_and_incidents_name_their_fields_and_write_nothing(
    db, operator, profile, dog
):
    inp = declaration(dog.id)
    findings = dict(inp.findings)
    findings.pop("stopping_fight")
    findings["aiding_injured_animal"] = Finding(None)
    bad = type(inp)(
        **{**inp.__dict__, "findings": findings, "grounds": (), "incidents": (), "officer": " "}
    )
    with pytest.raises(ValidationError) as exc:
        declare(db, operator, bad, profile)
    fields = exc.value.by_field()
    assert {
        "grounds",
        "incidents",
        "officer",
        "finding.stopping_fight",
        "finding.aiding_injured_animal",
    } <= set(fields)
    assert count(db, ViciousCase) == 0 and count(db, ViciousDeclaration) == 0


def test_a_declaration_records_grounds_findings_incidents_and_who(db, operator, profile, dog):
    view = declared(db, operator, profile, dog.id, grounds=("bit_or_clawed", "known_propensity"))
    assert view.status == "declared" and view.declared
    assert [g[1] for g in view.grounds] == ["58-524(a)(1)a", "58-524(a)(1)c"]
    assert len(view.findings) == len(rules.EXCEPTIONS) and not any(f.applies for f in view.findings)
    assert view.officer == "Off. Dana Lee" and view.recorded_by == operator.username
    assert view.owner == "Ana Ruiz" and "12 Elm St" in view.owner_address
    assert view.incidents[0].place == "Elm & 3rd"


@pytest.mark.parametrize(
    ("served", "deadline"),
    [
        # Friday afternoon: Saturday counts, Sunday does not -> Monday at the same hour.
        (local(2026, 11, 20, 15, 30), local(2026, 11, 23, 15, 30)),
        # Friday before Labor Day (Mon 7 Sep): Sunday and the holiday left out -> Tuesday.
        (local(2026, 9, 4, 15, 30), local(2026, 9, 8, 15, 30)),
    ],
)
def test_notice_posted_on_a_friday_afternoon(db, operator, profile, dog, served, deadline):
    case = declared(db, operator, profile, dog.id, decided_at=local(2026, 9, 1, 9))
    view = serve_notice(
        db,
        operator,
        case.id,
        NoticeInput(
            "posted",
            served,
            "Off. Marco Vang",
            "Front door, 12 Elm St, Madison",
            "Owner refused the notice.",
        ),
        profile,
    )
    assert view.status == "served"
    n = view.notice
    assert n.method == "posted" and n.served_at == served and n.deadline == deadline
    assert n.deadline_text.startswith(("Mon 23 Nov 2026", "Tue 8 Sep 2026"))
    assert "Sunday" in n.deadline_why
    if deadline.month == 9:
        assert "Labor Day" in n.deadline_why


def test_notice_fields_and_state(db, operator, profile, dog):
    case = declared(db, operator, profile, dog.id)
    with pytest.raises(ValidationError) as exc:
        serve_notice(db, operator, case.id, NoticeInput("thrown", None, "", ""), profile)
    assert {"method", "served_at", "served_by", "place"} <= set(exc.value.by_field())
    with pytest.raises(ValidationError) as exc:
        serve_notice(
            db,
            operator,
            case.id,
            NoticeInput("in_person", local(2026, 11, 1, 9), "Off. Lee", "12 Elm St"),
            profile,
        )
    assert exc.value.field == "served_at"  # before the declaration
    view = serve_notice(
        db,
        operator,
        case.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )
    with pytest.raises(StaleRecordError):
        serve_notice(
            db,
            operator,
            case.id,
            NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St", "again"),
            profile,
            version=view.version - 1,
        )
    with pytest.raises(ValidationError) as exc:  # served again needs a why
        serve_notice(
            db,
            operator,
            case.id,
            NoticeInput("in_person", local(2026, 11, 3, 10), "Off. Lee", "12 Elm St"),
            profile,
        )
    assert exc.value.field == "notes"


def test_refused_case_takes_no_notice(db, operator, profile, dog):
    case = declared(db, operator, profile, dog.id, applies={"law_enforcement_dog": "K-9 unit"})
    with pytest.raises(ValidationError):
        serve_notice(
            db,
            operator,
            case.id,
            NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
            profile,
        )


def served(db, operator, profile, animal_id, at=None):
    case = declared(db, operator, profile, animal_id)
    return serve_notice(
        db,
        operator,
        case.id,
        NoticeInput("in_person", at or local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )


def test_outcomes_need_their_facts_and_not_complied_waits_for_the_deadline(
    db, operator, profile, dog
):
    case = served(db, operator, profile, dog.id)  # Tue 3 Nov 9:00 -> Thu 5 Nov 9:00
    with pytest.raises(ValidationError) as exc:
        record_outcome(
            db, operator, case.id, OutcomeInput("destroyed", local(2026, 11, 4)), profile
        )
    assert {"by_whom", "proof"} <= set(exc.value.by_field())
    with pytest.raises(ValidationError) as exc:
        record_outcome(db, operator, case.id, OutcomeInput("removed", local(2026, 11, 4)), profile)
    assert {"removed_to", "confirmed_how"} <= set(exc.value.by_field())
    with pytest.raises(ValidationError) as exc:
        record_outcome(
            db, operator, case.id, OutcomeInput("not_complied", local(2026, 11, 5, 8, 59)), profile
        )
    assert exc.value.field == "at" and "Thu 5 Nov 2026" in str(exc.value)
    view = record_outcome(
        db, operator, case.id, OutcomeInput("not_complied", local(2026, 11, 5, 9, 0)), profile
    )
    assert view.status == "not_complied" and view.outcome.kind == "not_complied"
    with pytest.raises(ValidationError):  # one outcome per notice
        record_outcome(
            db,
            operator,
            case.id,
            OutcomeInput("removed", local(2026, 11, 6), removed_to="x", confirmed_how="y"),
            profile,
        )
    view = add_step(
        db,
        operator,
        case.id,
        StepInput("court_action", date(2026, 11, 10), "File for a destruction order"),
        profile,
    )
    view = add_step(db, operator, case.id, StepInput("seizure", date(2026, 11, 9)), profile)
    assert [(s.kind, s.section) for s in view.steps] == [
        ("seizure", "58-524(c)(1)"),
        ("court_action", "58-524(c)(3)"),
    ]
    with db.read() as s:
        assert s.get(ViciousCase, case.id).next_step_due == date(2026, 11, 9)
    view = complete_step(
        db, operator, view.steps[0].id, date(2026, 11, 9), "Seized at the park", profile
    )
    assert view.steps[0].done_on == date(2026, 11, 9)
    with db.read() as s:
        assert s.get(ViciousCase, case.id).next_step_due == date(2026, 11, 10)


@pytest.mark.parametrize("kind", ["destroyed", "removed"])
def test_an_outcome_is_not_before_the_notice_was_served(db, operator, profile, dog, kind):
    case = served(db, operator, profile, dog.id)  # served Tue 3 Nov 2026 9:00
    facts = (
        {"by_whom": "Dr. Ng", "proof": "Clinic record 1120"}
        if kind == "destroyed"
        else {
            "removed_to": "Verona",
            "confirmed_how": "Verona police saw the dog there",
        }
    )
    for early in (local(2025, 6, 1), local(2026, 11, 3, 8, 59)):  # a year before; a minute
        with pytest.raises(ValidationError) as exc:
            record_outcome(db, operator, case.id, OutcomeInput(kind, early, **facts), profile)
        assert exc.value.field == "at" and "Tue 3 Nov 2026" in str(exc.value)
    with db.read() as s:
        assert s.get(ViciousCase, case.id).status == "served"  # nothing written
    view = record_outcome(
        db, operator, case.id, OutcomeInput(kind, local(2026, 11, 3, 9), **facts), profile
    )
    assert view.status == kind


def test_a_next_step_is_not_due_or_taken_before_the_finding_of_not_complied(
    db, operator, profile, dog
):
    case = served(db, operator, profile, dog.id)
    record_outcome(
        db, operator, case.id, OutcomeInput("not_complied", local(2026, 11, 5, 9)), profile
    )
    with pytest.raises(ValidationError) as exc:
        add_step(db, operator, case.id, StepInput("seizure", date(2020, 1, 1)), profile)
    assert exc.value.field == "due_on" and "Thu 5 Nov 2026" in str(exc.value)
    with pytest.raises(ValidationError) as exc:
        add_step(db, operator, case.id, StepInput("seizure", date(2026, 11, 4)), profile)
    assert exc.value.field == "due_on"
    view = add_step(db, operator, case.id, StepInput("seizure", date(2026, 11, 5)), profile)
    step = view.steps[0].id
    with pytest.raises(ValidationError) as exc:
        complete_step(db, operator, step, date(2026, 11, 4), "Seized", profile)
    assert exc.value.field == "done_on" and "Thu 5 Nov 2026" in str(exc.value)
    assert view.steps[0].done_on is None
    view = complete_step(db, operator, step, date(2026, 11, 5), "Seized at the park", profile)
    assert view.steps[0].done_on == date(2026, 11, 5)


def test_removed_and_destroyed(db, operator, profile, today):
    _, rex = owner_and_dog(db, operator, today)
    _, max_ = owner_and_dog(db, operator, today, "Bea Quinn", "Max")
    a = record_outcome(
        db,
        operator,
        served(db, operator, profile, rex.id).id,
        OutcomeInput(
            "removed",
            local(2026, 11, 4),
            removed_to="Verona, 1220 County Rd K",
            confirmed_how="Verona police saw the dog there",
        ),
        profile,
    )
    b = record_outcome(
        db,
        operator,
        served(db, operator, profile, max_.id).id,
        OutcomeInput(
            "destroyed", local(2026, 11, 4), by_whom="Dr. Kim", proof="Clinic record 4471"
        ),
        profile,
    )
    assert (a.status, a.outcome.removed_to) == ("removed", "Verona, 1220 County Rd K")
    assert (b.status, b.outcome.proof) == ("destroyed", "Clinic record 4471")
    assert a.declared  # removal complies with the notice; the animal is still declared


def test_withdrawal_is_a_supervisors_new_event_and_the_declaration_stays(
    db, operator, supervisor, profile, dog
):
    case = declared(db, operator, profile, dog.id)
    ending = EndingInput(
        "overturned",
        date(2026, 11, 20),
        "Dane County Circuit Court",
        "Provoked, as the court found",
    )
    with pytest.raises(PermissionDeniedError):
        end_declaration(db, operator, case.id, ending, profile)
    with pytest.raises(ValidationError) as exc:
        end_declaration(db, supervisor, case.id, EndingInput("overturned", None, "", ""), profile)
    assert {"decided_on", "authority", "reason"} <= set(exc.value.by_field())
    view = end_declaration(db, supervisor, case.id, ending, profile)
    assert view.status == "overturned" and not view.declared
    assert view.ending.authority == "Dane County Circuit Court"
    assert view.grounds == case.grounds and view.decided_at == case.decided_at
    actions = [h.action for h in record_history(db, "vicious_case", case.id, profile.timezone)]
    assert "end_declaration" in actions and "declare" in actions


@pytest.mark.parametrize(
    "table",
    [
        "vicious_declaration",
        "vicious_incident",
        "vicious_notice",
        "vicious_outcome",
        "vicious_step",
    ],
)
def test_decided_rows_are_never_changed_or_deleted(db, operator, profile, dog, table):
    case = served(db, operator, profile, dog.id)
    record_outcome(db, operator, case.id, OutcomeInput("not_complied", local(2026, 11, 6)), profile)
    add_step(db, operator, case.id, StepInput("court_action", date(2026, 11, 10)), profile)
    for stmt in (f"UPDATE {table} SET id = id", f"DELETE FROM {table}"):
        with pytest.raises(Exception, match="never changed or deleted"), db.write() as s:
            s.execute(text(stmt))
    assert load_case(db, case.id, profile).status == "not_complied"


def test_hostile_names_are_kept_as_typed(db, operator, profile, today):
    _, dog = owner_and_dog(db, operator, today, HOSTILE, "<b>Rex</b>")
    view = declared(db, operator, profile, dog.id)
    assert view.owner == HOSTILE and view.animal.startswith("<b>Rex</b>")


def test_findings_cover_every_exception(db, operator, profile, dog):
    assert set(no_exceptions()) == set(rules.EXCEPTIONS)


def test_every_action_the_case_writes_reads_in_words(db, operator, supervisor, profile, dog):
    """Each audit action of a case's life has its entry (the formatter splits audit calls
    over lines, which a scan of the source would miss)."""
    from fieldops.services.history import all_event_kinds

    case = served(db, operator, profile, dog.id)
    record_outcome(db, operator, case.id, OutcomeInput("not_complied", local(2026, 11, 6)), profile)
    view = add_step(db, operator, case.id, StepInput("seizure", date(2026, 11, 9)), profile)
    complete_step(db, operator, view.steps[0].id, date(2026, 11, 9), "Seized", profile)
    end_declaration(
        db,
        supervisor,
        case.id,
        EndingInput("withdrawn", date(2026, 11, 10), "Sgt. Park", "x"),
        profile,
    )
    with db.read() as s:
        events = s.execute(select(AuditEvent.entity, AuditEvent.action)).all()
    assert {
        "declare",
        "serve_notice",
        "record_outcome",
        "add_step",
        "complete_step",
        "end_declaration",
        "status",
        "declared_vicious",
    } <= {a for _e, a in events}
    for entity, action in events:
        assert f"{entity}:{action}" in all_event_kinds() or action in all_event_kinds(), action
    lines = record_history(db, "vicious_case", case.id, profile.timezone)
    assert "Seizure of the animal" in " ".join(x.sentence for x in lines)


def test_a_declaration_is_not_withdrawn_before_it_was_made(db, operator, supervisor, profile, dog):
    case = declared(db, operator, profile, dog.id)  # decided Mon 2 Nov 2026
    with pytest.raises(ValidationError) as exc:
        end_declaration(
            db,
            supervisor,
            case.id,
            EndingInput("withdrawn", date(2026, 11, 1), "Chief Ortiz", "Entered in error"),
            profile,
            version=case.version,
        )
    assert {e.field for e in exc.value.errors} == {"decided_on"}
    assert load_case(db, case.id, profile).declared
    ended = end_declaration(
        db,
        supervisor,
        case.id,
        EndingInput("withdrawn", date(2026, 11, 2), "Chief Ortiz", "Entered in error"),
        profile,
        version=case.version,
    )
    assert not ended.declared


def test_a_notice_served_again_is_not_dated_before_the_one_it_follows(db, operator, profile, dog):
    """58-524(c)(2): the hours run from service; an earlier-dated second notice would put
    the deadline Today and "not complied" use before the one the case shows in force."""
    case = declared(db, operator, profile, dog.id)
    first = NoticeInput("in_person", local(2026, 11, 5, 9), "Off. Lee", "12 Elm St")
    serve_notice(db, operator, case.id, first, profile)
    again = NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St", "defect")
    with pytest.raises(ValidationError) as exc:
        serve_notice(db, operator, case.id, again, profile)
    assert {e.field for e in exc.value.errors} == {"served_at"}
    later = NoticeInput("in_person", local(2026, 11, 6, 9), "Off. Lee", "12 Elm St", "defect")
    view = serve_notice(db, operator, case.id, later, profile)
    assert view.notice is not None and view.notice.served_at == local(2026, 11, 6, 9)


def test_an_animal_standing_declared_is_not_declared_again(db, operator, supervisor, profile, dog):
    """One declaration in force per animal: a second would serve a second notice and run a
    second deadline for the same dog. A refusal (an exception applied) does not stand."""
    case = declared(db, operator, profile, dog.id)
    with pytest.raises(ValidationError) as exc:
        declared(db, operator, profile, dog.id)
    assert {e.field for e in exc.value.errors} == {"animal_id"}
    with db.read() as s:
        assert s.scalar(select(func.count()).select_from(ViciousCase)) == 1
    end_declaration(
        db,
        supervisor,
        case.id,
        EndingInput("withdrawn", date(2026, 11, 3), "Chief Ortiz", "Entered in error"),
        profile,
    )
    assert declared(db, operator, profile, dog.id).declared


def test_no_step_is_taken_on_a_declaration_after_it_was_overturned(
    db, operator, supervisor, profile, dog
):
    view = with_step(db, operator, profile, dog.id, "seizure", date(2026, 11, 6))
    step = view.steps[0].id
    end_declaration(
        db,
        supervisor,
        view.id,
        EndingInput("overturned", date(2026, 11, 9), "Circuit Court", "Appeal granted"),
        profile,
    )
    with pytest.raises(ValidationError) as exc:
        complete_step(db, operator, step, date(2026, 11, 10), "Seized", profile)
    assert {e.field for e in exc.value.errors} == {"done_on"}
    # Taken before the court's decision, entered late: that stands.
    done = complete_step(db, operator, step, date(2026, 11, 8), "Seized at the park", profile)
    assert done.steps[0].done_on == date(2026, 11, 8)
