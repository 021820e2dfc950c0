"""Staff roles: who may do a supervisor's work is decided by an administrator."""

from __future__ import annotations

import pytest

from fieldops.errors import PermissionDeniedError, ValidationError
from fieldops.services.audit import history
from fieldops.services.context import Actor, actor_for
from fieldops.services.staff import list_staff, set_staff

ADMIN = Actor("ada", "admin")


def test_an_administrator_makes_a_supervisor_and_it_is_audited(db, operator):
    view = set_staff(db, ADMIN, "sam", "supervisor", full_name="Sam Supervisor")
    assert view.role == "supervisor"
    with db.read() as s:
        assert actor_for(s, "sam").is_supervisor
    assert [u.username for u in list_staff(db)] == ["sam"]
    set_staff(db, ADMIN, "sam", "operator")
    with db.read() as s:
        assert not actor_for(s, "sam").is_supervisor
    (entry,) = [h for h in history(db, "staff_user", 1) if h.action == "update"]
    assert "supervisor → operator" in entry.summary and entry.actor == "ada"


def test_only_an_administrator_changes_roles(db, supervisor):
    with pytest.raises(PermissionDeniedError):
        set_staff(db, supervisor, "opal", "admin")


def test_bad_role_and_self_demotion_are_refused(db):
    with pytest.raises(ValidationError) as exc:
        set_staff(db, ADMIN, "x", "boss")
    assert exc.value.field == "role"
    with pytest.raises(ValidationError, match="your own administrator"):
        set_staff(db, ADMIN, "ada", "operator")
    assert list_staff(db) == ()
