"""Signing in: argon2id hashes, five wrong passwords lock for ten minutes, resets force a
change, and every step is audited (issue 12)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select

from fieldops.db.models import AuditEvent, StaffUser
from fieldops.errors import PermissionDeniedError, UserError, ValidationError
from fieldops.services import signin
from fieldops.services.context import now
from fieldops.services.signin import (
    SignInError,
    change_password,
    create_first_admin,
    needs_first_admin,
    reset_password,
    set_password,
    sign_in,
    unlock,
)
from fieldops.services.staff import set_staff

GOOD = "correct horse battery"


def _actions(db, username):
    with db.read() as s:
        uid = s.scalar(select(StaffUser.id).where(StaffUser.username == username))
        return [
            a
            for (a,) in s.execute(
                select(AuditEvent.action)
                .where(AuditEvent.entity == "staff_user", AuditEvent.entity_id == uid)
                .order_by(AuditEvent.id)
            )
        ]


def _hash(db, username):
    with db.read() as s:
        return s.scalar(select(StaffUser.password_hash).where(StaffUser.username == username))


def test_a_new_database_asks_for_its_first_administrator_once(db):
    assert needs_first_admin(db)
    with pytest.raises(ValidationError) as exc:
        create_first_admin(db, "ada", "Ada Admin", "too short")
    assert exc.value.field == "password"
    ada = create_first_admin(db, "ada", "Ada Admin", GOOD)
    assert ada.role == "admin" and not needs_first_admin(db)
    assert _hash(db, "ada").startswith("$argon2id$") and GOOD not in _hash(db, "ada")
    with pytest.raises(UserError, match="already has an administrator"):
        create_first_admin(db, "eve", "Eve", GOOD)
    signed = sign_in(db, "ada", GOOD)
    assert signed.actor.username == "ada" and not signed.must_change_password
    assert _actions(db, "ada") == ["create", "sign_in"]


def test_the_production_hasher_uses_owasp_parameters():
    h = signin.OWASP_HASHER
    assert (h.memory_cost, h.time_cost, h.parallelism) == (19 * 1024, 2, 1)
    assert h.type.name == "ID"


def test_five_wrong_passwords_lock_for_ten_minutes_and_the_lock_runs_out(db, monkeypatch):
    create_first_admin(db, "ada", "Ada Admin", GOOD)
    for attempt in range(4):
        with pytest.raises(SignInError) as exc:
            sign_in(db, "ada", f"wrong {attempt}")
        assert exc.value.code == "wrong"
    with pytest.raises(SignInError) as exc:
        sign_in(db, "ada", "wrong 5")
    assert exc.value.code == "locked"
    with pytest.raises(SignInError) as exc:
        sign_in(db, "ada", GOOD)  # the right password does not open a locked account
    assert exc.value.code == "locked"
    later = now() + timedelta(minutes=10, seconds=1)
    monkeypatch.setattr(signin, "now", lambda: later)
    assert sign_in(db, "ada", GOOD).actor.username == "ada"
    assert _actions(db, "ada") == (
        ["create"] + ["sign_in_failed"] * 5 + ["lock", "sign_in_failed", "unlock", "sign_in"]
    )


def test_an_unknown_login_and_a_wrong_password_read_the_same(db):
    create_first_admin(db, "ada", "Ada Admin", GOOD)
    with pytest.raises(SignInError) as unknown:
        sign_in(db, "adam", GOOD)
    with pytest.raises(SignInError) as wrong:
        sign_in(db, "ada", "not the password")
    assert str(unknown.value) == str(wrong.value)


def test_a_reset_forces_a_change_and_an_admin_unlocks(db, admin, operator):
    temporary = reset_password(db, admin, "opal")
    assert len(temporary) >= 10
    signed = sign_in(db, "opal", temporary)
    assert signed.must_change_password
    with pytest.raises(ValidationError) as exc:
        change_password(db, operator, "not it", "a new long password")
    assert exc.value.field == "old_password"
    with pytest.raises(ValidationError) as exc:
        change_password(db, operator, temporary, "short")
    assert exc.value.field == "new_password"
    change_password(db, operator, temporary, "a new long password")
    assert not sign_in(db, "opal", "a new long password").must_change_password
    for n in range(5):
        with pytest.raises(SignInError):
            sign_in(db, "opal", f"bad {n}")
    unlock(db, admin, "opal")
    assert sign_in(db, "opal", "a new long password")
    assert {"password_reset", "password_change", "lock", "unlock"} <= set(_actions(db, "opal"))
    with pytest.raises(PermissionDeniedError):
        reset_password(db, operator, "ada")


def test_a_deactivated_account_cannot_sign_in(db, admin, operator):
    set_password(db, admin, "opal", GOOD)
    set_staff(db, admin, "opal", "operator", active=False)
    with pytest.raises(SignInError) as exc:
        sign_in(db, "opal", GOOD)
    assert exc.value.code == "inactive"


def test_changed_parameters_rehash_at_the_next_sign_in(db, admin, operator):
    set_password(db, admin, "opal", GOOD)
    old = _hash(db, "opal")
    previous = signin.use_hasher(PasswordHasher(time_cost=2, memory_cost=16, parallelism=1))
    try:
        sign_in(db, "opal", GOOD)
        new = _hash(db, "opal")
        assert new != old and "t=2" in new
        sign_in(db, "opal", GOOD)  # the new hash works, and is kept
        assert _hash(db, "opal") == new
    finally:
        signin.use_hasher(previous)
