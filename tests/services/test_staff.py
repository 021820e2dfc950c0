"""Staff roles: an administrator decides them, and the services read them from the
database at every call (issue 12), never from what an ``Actor`` claims."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.services.audit import history
from fieldops.services.context import Actor, actor_for
from fieldops.services.fee_schedules import FeeScheduleInput, enter_fee_schedule
from fieldops.services.people import PersonInput, create_person
from fieldops.services.staff import list_staff, set_staff


def test_an_administrator_makes_a_supervisor_and_it_is_audited(db, admin):
    view = set_staff(db, admin, "sam", "supervisor", full_name="Sam Supervisor")
    assert view.role == "supervisor"
    with db.read() as s:
        assert actor_for(s, "sam").role == "supervisor"
    assert [u.username for u in list_staff(db)] == ["ada", "sam"]
    set_staff(db, admin, "sam", "operator")
    with db.read() as s:
        assert actor_for(s, "sam").role == "operator"
        sam_id = s.execute(text("SELECT id FROM staff_user WHERE username = 'sam'")).scalar_one()
    (entry,) = [h for h in history(db, "staff_user", sam_id) if h.action == "update"]
    assert "supervisor → operator" in entry.summary and entry.actor == "ada"


def test_only_an_administrator_changes_roles(db, supervisor):
    with pytest.raises(PermissionDeniedError):
        set_staff(db, supervisor, "opal", "admin")


def test_bad_role_and_self_demotion_are_refused(db, admin):
    with pytest.raises(ValidationError) as exc:
        set_staff(db, admin, "x", "boss")
    assert exc.value.field == "role"
    with pytest.raises(ValidationError, match="your own administrator"):
        set_staff(db, admin, "ada", "operator")
    assert [u.username for u in list_staff(db)] == ["ada"]


def test_a_claimed_role_gains_nothing_the_database_decides(db, operator):
    """Actor("olga", "supervisor") entered a fee schedule; now the account's role counts."""
    claimed = Actor("opal", "supervisor")  # opal is an operator in the database
    with pytest.raises(PermissionDeniedError, match="fee schedule"):
        enter_fee_schedule(db, claimed, FeeScheduleInput("2026-41", None, {}))
    with pytest.raises(PermissionDeniedError, match="staff account"):
        create_person(db, Actor("olga", "supervisor"), PersonInput(full_name="X Y"))


def test_a_deactivated_or_demoted_account_is_refused_at_once(db, admin, supervisor):
    create_person(db, supervisor, PersonInput(full_name="Ann One"))
    set_staff(db, admin, "sam", "admin", active=False)  # no restart in between
    with pytest.raises(PermissionDeniedError, match="deactivated"):
        create_person(db, supervisor, PersonInput(full_name="Ann Two"))
    set_staff(db, admin, "sam", "admin")
    with pytest.raises(PermissionDeniedError, match="administrator"):
        create_person(db, supervisor, PersonInput(full_name="Ann Three"))


def test_the_check_is_made_again_inside_the_unit_of_work(db, admin, operator, monkeypatch):
    """An account deactivated after the early check is still refused inside the save."""
    from fieldops import permissions

    sessions = []
    real = permissions.authorize

    def deactivated_just_after_the_early_check(session, actor, p):
        sessions.append(type(session).__name__)
        real(session, actor, p)
        if len(sessions) == 1:
            set_staff(db, admin, "opal", "operator", active=False)

    monkeypatch.setattr(permissions, "authorize", deactivated_just_after_the_early_check)
    with pytest.raises(PermissionDeniedError, match="deactivated"):
        create_person(db, operator, PersonInput(full_name="Late Save"))
    # the early check (a read) passed; the write unit's own check refused
    assert sessions[0] == "Session" and "Connection" in sessions
    with db.read() as s:
        found = s.execute(text("SELECT count(*) FROM person WHERE full_name = 'Late Save'"))
        assert found.scalar_one() == 0


@pytest.mark.parametrize("login", ["opal\tlogin", "opal login", " opal  x "])
def test_a_computer_login_with_spaces_or_tabs_is_refused(db, admin, login):
    """A login is one word: a tab typed by mistake used to be saved as a space, mapping the
    account to a login nobody has."""
    with pytest.raises(ValidationError) as exc:
        set_staff(db, admin, "opal", "operator", os_user=login)
    assert exc.value.field == "os_user"
    assert [u.username for u in list_staff(db)] == ["ada"]
    assert set_staff(db, admin, "opal", "operator", os_user=" opal-login ").username == "opal"
