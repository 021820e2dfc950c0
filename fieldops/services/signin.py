"""Passwords and signing in: argon2id, lockout after failed attempts, forced changes.

Every sign-in, failure, lock, unlock, password change and reset is audited in the
same unit of work that records it. There is no default password anywhere: a new
database's first administrator chooses one (``create_first_admin``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.flush_net import bad_character
from fieldops.db.models import StaffUser
from fieldops.errors import Collector, UserError, ValidationError
from fieldops.permissions import FIRST_ROLE, Permission, requires
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, now

MIN_PASSWORD_LENGTH = 10
MAX_FAILED_ATTEMPTS = 5
LOCK_PERIOD = timedelta(minutes=10)

# OWASP's minimum for argon2id (Password Storage Cheat Sheet): 19 MiB, t=2, p=1.
OWASP_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
_hasher = OWASP_HASHER


def use_hasher(hasher: PasswordHasher) -> PasswordHasher:
    """The one seam for the hashing parameters (tests use cheaper ones); the old hasher."""
    global _hasher
    old, _hasher = _hasher, hasher
    return old


class SignInError(UserError):
    """Signing in was refused; ``code`` says why (wrong, locked, inactive, no_password)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class SignedIn:
    actor: Actor
    must_change_password: bool


def check_password(field: str, password: str) -> None:
    if not isinstance(password, str) or bad_character(password) is not None:
        raise ValidationError({field: "A password cannot hold control or broken characters."})
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ValidationError(
            {field: f"A password needs at least {MIN_PASSWORD_LENGTH} characters."}
        )


def _hash(password: str) -> str:
    return _hasher.hash(password)


def checked_hash(field: str, password: str) -> str:
    """The hash of a password that passes :func:`check_password` (refused on ``field``)."""
    check_password(field, password)
    return _hash(password)


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _dummy(), password) and stored is not None
    except (VerificationError, InvalidHashError, UnicodeEncodeError):  # a lone surrogate
        return False


_DUMMY: list[str] = []


def _dummy() -> str:
    """A hash to verify against for an unknown login, so timing does not tell it apart."""
    if not _DUMMY:
        _DUMMY.append(_hasher.hash(secrets.token_hex(16)))
    return _DUMMY[0]


def _actor(user: StaffUser) -> Actor:
    return Actor(username=user.username, role=user.role, full_name=user.full_name)


def _user(s: Session, username: str) -> StaffUser | None:
    if not v.storable(username, StaffUser.__table__.c.username):
        return None  # no account has a login the column cannot hold (PostgreSQL refuses NUL)
    return s.scalars(select(StaffUser).where(StaffUser.username == username)).first()


def needs_first_admin(db: Database) -> bool:
    """True while no active administrator can sign in: the window asks for one."""
    with db.read() as s:
        found = s.scalars(
            select(StaffUser.id).where(
                StaffUser.role == FIRST_ROLE,
                StaffUser.active.is_(True),
                StaffUser.password_hash.is_not(None),
            )
        ).first()
    return found is None


def create_first_admin(
    db: Database, username: str, full_name: str, password: str, *, os_user: str | None = None
) -> Actor:
    """The first administrator of a database no administrator can sign in to yet."""
    username = v.clean(username)
    if not username:
        raise ValidationError({"username": "Enter a login name."})
    c = Collector()
    col = StaffUser.__table__.c
    v.optional_len(c, "username", username, "Login name", col.username)
    v.optional_len(c, "full_name", v.clean(full_name), "Name", col.full_name)
    v.optional_len(c, "os_user", v.clean(os_user), "Computer login", col.os_user)
    c.raise_if_any()
    check_password("password", password)
    hashed = _hash(password)
    with db.write() as s:
        if s.scalars(
            select(StaffUser.id).where(
                StaffUser.role == FIRST_ROLE, StaffUser.password_hash.is_not(None)
            )
        ).first():
            raise UserError("This database already has an administrator; sign in instead.")
        user = _user(s, username)
        before = None
        if user is None:
            user = StaffUser(username=username)
            s.add(user)
        else:
            before = {"role": user.role, "active": user.active}
        user.full_name = v.clean(full_name) or user.full_name or username
        user.role, user.active, user.password_hash = FIRST_ROLE, True, hashed
        user.must_change_password, user.failed_attempts, user.locked_until = False, 0, None
        if os_user:
            user.os_user = os_user
        s.flush()
        actor = _actor(user)
        audit(
            s,
            actor,
            "update" if before else "create",
            "staff_user",
            user.id,
            before=before,
            after={
                "username": username,
                "role": FIRST_ROLE,
                "active": True,
                "os_user": user.os_user,
            },
            reason="first administrator of this database",
        )
        return actor


def sign_in(db: Database, username: str, password: str) -> SignedIn:
    """Check a password; a failure counts towards the lock and is audited."""
    username = v.clean(username)
    at = now()
    refusal: SignInError | None = None
    result: SignedIn | None = None
    with db.write() as s:
        user = _user(s, username)
        ok = _verify(user.password_hash if user else None, password)
        if user is None:
            refusal = SignInError("wrong", "The login name or the password is wrong.")
        elif not user.active:
            refusal = SignInError("inactive", "This account has been deactivated.")
            audit(s, _actor(user), "sign_in_failed", "staff_user", user.id, reason="inactive")
        elif user.locked_until is not None and user.locked_until > at:
            refusal = SignInError(
                "locked",
                "This account is locked after too many wrong passwords; try again after "
                f"{_clock(user.locked_until)} or ask an administrator to unlock it.",
            )
            audit(s, _actor(user), "sign_in_failed", "staff_user", user.id, reason="locked")
        elif user.password_hash is None:
            refusal = SignInError(
                "no_password", "This account has no password yet; ask an administrator."
            )
        elif not ok:
            refusal = _failed(s, user, at)
        else:
            if user.locked_until is not None:  # the lock ran out
                audit(s, _actor(user), "unlock", "staff_user", user.id, reason="lock expired")
            user.failed_attempts, user.locked_until = 0, None
            if _hasher.check_needs_rehash(user.password_hash):
                user.password_hash = _hash(password)
            audit(s, _actor(user), "sign_in", "staff_user", user.id)
            result = SignedIn(_actor(user), user.must_change_password)
    if refusal is not None:
        raise refusal
    assert result is not None
    return result


def _clock(at: datetime) -> str:
    return at.astimezone().strftime("%H:%M")


def _failed(s: Session, user: StaffUser, at: datetime) -> SignInError:
    user.failed_attempts += 1
    audit(
        s,
        _actor(user),
        "sign_in_failed",
        "staff_user",
        user.id,
        reason=f"wrong password ({user.failed_attempts} of {MAX_FAILED_ATTEMPTS})",
    )
    if user.failed_attempts >= MAX_FAILED_ATTEMPTS:
        user.failed_attempts, user.locked_until = 0, at + LOCK_PERIOD
        audit(
            s,
            _actor(user),
            "lock",
            "staff_user",
            user.id,
            after={"locked_until": user.locked_until.isoformat()},
            reason=f"{MAX_FAILED_ATTEMPTS} wrong passwords",
        )
        return SignInError(
            "locked",
            f"{MAX_FAILED_ATTEMPTS} wrong passwords: the account is locked for "
            f"{int(LOCK_PERIOD.total_seconds() // 60)} minutes.",
        )
    return SignInError("wrong", "The login name or the password is wrong.")


@requires(Permission.OWN_ACCOUNT)
def change_password(db: Database, actor: Actor, old: str, new: str) -> None:
    """The signed-in user's own change; the old password must be right."""
    check_password("new_password", new)
    if new == old:
        raise ValidationError({"new_password": "Choose a password different from the old one."})
    hashed = _hash(new)
    with db.write() as s:
        user = _user(s, actor.username)
        if user is None or not _verify(user.password_hash, old):
            raise ValidationError({"old_password": "The current password is wrong."})
        user.password_hash, user.must_change_password = hashed, False
        audit(s, actor, "password_change", "staff_user", user.id)


def temporary_password() -> str:
    """Twelve letters and digits, easy to read out (no 0/O, 1/l)."""
    alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


@requires(Permission.ACCOUNTS)
def reset_password(db: Database, actor: Actor, username: str) -> str:
    """A new temporary password (returned, shown once); the user must change it."""
    password = temporary_password()
    hashed = _hash(password)
    with db.write() as s:
        user = _user(s, username)
        if user is None:
            raise UserError(f"There is no staff account {username!r}.")
        user.password_hash, user.must_change_password = hashed, True
        user.failed_attempts, user.locked_until = 0, None
        audit(s, actor, "password_reset", "staff_user", user.id)
    return password


@requires(Permission.ACCOUNTS)
def set_password(
    db: Database, actor: Actor, username: str, password: str, *, must_change: bool = True
) -> None:
    """An administrator sets an account's password (to be changed at the next sign-in)."""
    hashed = checked_hash("password", password)
    with db.write() as s:
        user = _user(s, username)
        if user is None:
            raise UserError(f"There is no staff account {username!r}.")
        user.password_hash, user.must_change_password = hashed, must_change
        audit(s, actor, "password_reset", "staff_user", user.id)


@requires(Permission.ACCOUNTS)
def unlock(db: Database, actor: Actor, username: str) -> None:
    with db.write() as s:
        user = _user(s, username)
        if user is None:
            raise UserError(f"There is no staff account {username!r}.")
        user.failed_attempts, user.locked_until = 0, None
        audit(s, actor, "unlock", "staff_user", user.id)
