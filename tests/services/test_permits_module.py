"""The permit module on the seam: demo permits in every state, `fieldops due`, the check,
and the append-only rows the database refuses to change."""

from __future__ import annotations

import json
from datetime import date

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from fieldops import modules
from fieldops.cli import main
from fieldops.db.engine import Database
from fieldops.db.models.permit import APPEND_ONLY
from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits.applying import FancierInput, apply_fancier
from fieldops.services.permits.enforcing import IncidentInput, record_incident
from fieldops.services.permits.issuing import issue_permit
from fieldops.services.permits.views import AnimalLine


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    path = tmp_path_factory.mktemp("permits") / "demo.db"
    assert main(["--db", str(path), "demo", "--seed", "3", "--people", "40"]) == 0
    db = Database(f"sqlite:///{path}")
    yield str(path), db
    db.dispose()


def test_the_demo_has_permits_in_every_state_and_a_row_in_every_table(demo):
    _path, db = demo
    with db.read() as s:
        rows = s.execute(text("SELECT kind, status, year, first_year FROM permit")).all()
        counts = {t: s.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in APPEND_ONLY}
    states = {status for _k, status, _y, _f in rows}
    assert {"applied", "issued", "refused", "revoked", "not_renewed", "appeal_pending"} <= states
    assert any(f is not None and y > f for _k, st, y, f in rows if st == "issued")  # renewed
    assert {k for k, *_ in rows} == {"chicken", "fancier"}
    assert all(counts.values()), counts


def test_due_carries_the_permit_categories_and_the_check_passes(demo, capsys):
    path, _db = demo
    capsys.readouterr()
    assert main(["--db", path, "due", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    mine = {i["category"] for i in items if i["module"] == "permit"}
    assert {
        "permit.list_update_overdue",
        "permit.appeal_to_decide",
        "permit.appeal_due",
        "permit.notice_to_mail",
        "permit.to_issue",
    } <= mine
    assert mine <= set(modules.categories())
    assert main(["--db", path, "check"]) == 0


def test_what_was_recorded_is_never_changed_or_deleted(db, operator, profile):
    who = create_person(db, operator, PersonInput(full_name="Ivo Marsh", address="3 Loft Ln"))
    v = apply_fancier(
        db,
        operator,
        who.id,
        who.address,
        FancierInput(date(2026, 1, 5), 2026, (AnimalLine("pigeons", 4),)),
        profile,
    )
    issue_permit(db, operator, v.id, date(2026, 1, 6), profile)
    record_incident(
        db, operator, v.id, IncidentInput(date(2026, 2, 1), "noise", "warning", "Loud"), profile
    )
    for sql in (
        "UPDATE permit_incident SET ending = 'none'",
        "DELETE FROM permit_application",
        "UPDATE permit_issue SET year = 2030",
    ):
        with pytest.raises(DBAPIError), db.write() as s:
            s.execute(text(sql))
