"""The vicious-animal module on the seam: the release block, due items, demo, check."""

from __future__ import annotations

import json
from datetime import date

import pytest
from support import local
from vicious_cases import declared, owner_and_dog

from fieldops import modules
from fieldops.cli import main
from fieldops.errors import PermissionDeniedError
from fieldops.services.dispositions import (
    ReleaseRequest,
    RequirementsNotMet,
    release,
    release_check,
)
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person
from fieldops.services.vicious.module import NOT_DECLARED, due_items
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import (
    EndingInput,
    OutcomeInput,
    StepInput,
    add_step,
    end_declaration,
    record_outcome,
)


@pytest.fixture
def counter(db, operator, profile, today):
    """Rex, declared vicious, impounded Mon 2 Nov; fees paid for a reclaim on Wed 4 Nov."""
    ana, rex = owner_and_dog(db, operator, today)
    imp = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            animal_id=rex.id,
            officer="Off. Lee",
            reason="bite",
            found_place="Elm & 3rd",
        ),
        profile,
    )
    at = local(2026, 11, 4)
    fees = quote(db, imp.id, at, True, profile)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput(
            tuple(LineInput(f.kind, f.amount) for f in fees.lines if f.amount > 0),
            "cash",
            "R-1",
            payer_id=ana.id,
            paid_at=at,
        ),
        profile,
    )
    req = ReleaseRequest(True, ana.id, at=at, rabies_certificate="RV-1", licence_receipt="L-1")
    return db, rex, imp, req


def test_the_module_takes_the_placeholders_line():
    m = {x.key: x for x in modules.installed_modules()}["vicious"]
    assert m.title == "Vicious animals" and m.due_items is not None
    assert all(c.startswith("vicious.") for c in m.categories)


def test_no_declaration_on_record_lets_the_release_through(counter, operator, profile):
    db, _rex, imp, req = counter
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, profile)}
    assert checked["not_vicious"].met and checked["not_vicious"].evidence == NOT_DECLARED


def test_a_declared_animal_is_not_released_to_its_owner_in_the_city(
    counter, operator, officer, supervisor, profile
):
    db, rex, imp, req = counter
    case = declared(db, officer, profile, rex.id)
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, profile)}
    assert not checked["not_vicious"].met and checked["not_vicious"].module == "vicious"
    assert f"case #{case.id}" in checked["not_vicious"].evidence
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, profile)
    assert [r.code for r in exc.value.requirements] == ["not_vicious"]
    over = ReleaseRequest(
        **{**req.__dict__, "overrides": {"not_vicious": "Owner moving out of the city today"}}
    )
    with pytest.raises(PermissionDeniedError):
        release(db, operator, imp.id, over, profile)
    view = release(db, supervisor, imp.id, over, profile)
    ev = {e.code: e for e in view.disposition.evidence}["not_vicious"]
    assert ev.overridden and "moving out" in ev.override_reason


def test_refused_or_overturned_declarations_do_not_block(
    counter, operator, officer, supervisor, profile
):
    db, rex, imp, req = counter
    declared(db, officer, profile, rex.id, applies={"defending_person": "Guarding the child"})
    case = declared(db, officer, profile, rex.id)
    end_declaration(
        db,
        supervisor,
        case.id,
        EndingInput("withdrawn", date(2026, 11, 3), "Sgt. Park", "Wrong dog identified"),
        profile,
    )
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, profile)}
    assert checked["not_vicious"].met


def test_a_declared_animal_may_go_to_someone_outside_the_city(counter, operator, officer, profile):
    db, rex, imp, req = counter
    declared(db, officer, profile, rex.id)
    out = create_person(
        db, operator, PersonInput(full_name="Cy Out", address="1 Rd", city="Verona", in_city=False)
    )
    checked = {
        c.requirement.code: c
        for c in release_check(
            db, imp.id, ReleaseRequest(**{**req.__dict__, "recipient_id": out.id}), profile
        )
    }
    assert checked["not_vicious"].met


def test_due_items_expiring_expired_steps_and_notices_to_serve(db, officer, profile, today):
    _, a = owner_and_dog(db, officer, today)
    _, b = owner_and_dog(db, officer, today, "Bea Quinn", "Max")
    _, c = owner_and_dog(db, officer, today, "Cy Dunn", "Bo")
    _, d = owner_and_dog(db, officer, today, "Di Fox", "Zed")
    declared(db, officer, profile, a.id)  # no notice yet
    nb = declared(db, officer, profile, b.id)
    # Served Tue 3 Nov 9:00: the deadline is Thu 5 Nov 9:00.
    serve_notice(
        db,
        officer,
        nb.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "12 Elm St"),
        profile,
    )
    nc = declared(db, officer, profile, c.id)
    serve_notice(
        db,
        officer,
        nc.id,
        NoticeInput("posted", local(2026, 11, 3, 9), "Off. Lee", "Front door"),
        profile,
    )
    record_outcome(
        db, officer, nc.id, OutcomeInput("not_complied", local(2026, 11, 5, 10)), profile
    )
    add_step(db, officer, nc.id, StepInput("court_action", date(2026, 11, 6)), profile)
    nd = declared(db, officer, profile, d.id)
    serve_notice(
        db,
        officer,
        nd.id,
        NoticeInput("in_person", local(2026, 11, 3, 9), "Off. Lee", "1 Oak"),
        profile,
    )
    record_outcome(
        db,
        officer,
        nd.id,
        OutcomeInput("removed", local(2026, 11, 4), removed_to="Verona", confirmed_how="Called"),
        profile,
    )

    def cats(day):
        return {(i.record_id, i.category, i.overdue) for i in due_items(db, day, profile)}

    # Wed 4 Nov from its start: b's deadline (Thu 9:00) is 33 hours off: not yet listed.
    assert (nb.id, "vicious.notice_expiring", False) not in cats(date(2026, 11, 4))
    # Thu 5 Nov from its start: within 24 hours.
    assert (nb.id, "vicious.notice_expiring", False) in cats(date(2026, 11, 5))
    got = cats(date(2026, 11, 6))
    assert (nb.id, "vicious.notice_expired", True) in got
    assert (nc.id, "vicious.step_due", False) in got
    assert (nc.id, "vicious.step_due", True) in cats(date(2026, 11, 7))
    assert not any(r == nd.id for r, _c, _o in got)  # complied: nothing due
    assert any(c == "vicious.notice_to_serve" for _r, c, _o in got)


def test_demo_and_due_json_and_check(tmp_path, capsys):
    url = str(tmp_path / "demo.db")
    assert main(["--db", url, "demo", "--seed", "3", "--people", "200"]) == 0
    assert "vicious-animal cases" in capsys.readouterr().out
    assert main(["--db", url, "due", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    mine = {i["category"] for i in items if i["module"] == "vicious"}
    assert {"vicious.notice_expired", "vicious.step_due", "vicious.notice_to_serve"} <= mine
    assert all(i["category"].startswith("vicious.") for i in items if i["module"] == "vicious")
    assert main(["--db", url, "check"]) == 0
    from fieldops.db.engine import Database

    db = Database(f"sqlite:///{url}")
    with db.read() as s:
        from fieldops.db.models import ViciousCase

        statuses = {c.status for c in s.query(ViciousCase)}
    db.dispose()
    assert {
        "refused",
        "declared",
        "served",
        "removed",
        "destroyed",
        "not_complied",
        "overturned",
    } <= statuses
