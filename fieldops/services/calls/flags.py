"""Caution flags for officers on a person or an address: set and cleared by a supervisor
with a reason, audited, and shown on every call that touches them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CautionFlag, Person
from fieldops.errors import Collector, NotFoundError, StaleRecordError
from fieldops.modules import Caution
from fieldops.permissions import Permission, requires
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.views import FlagView
from fieldops.services.context import Actor, audit, now, require_row_id, snapshot

ENTITY = "caution_flag"
FIELDS = ("person_id", "address", "reason", "set_at", "set_by")


def flag_view(s: Session, f: CautionFlag) -> FlagView:
    p = s.get(Person, f.person_id) if f.person_id else None
    return FlagView(
        f.id,
        f.person_id,
        p.full_name if p else "",
        f.address,
        f.reason,
        f.set_at,
        f.set_by,
        f.cleared_at,
        f.cleared_by,
        f.clear_reason,
        f.version,
    )


def _standing(s: Session, person_ids: Sequence[int], address: str) -> Sequence[CautionFlag]:
    """The standing flags on any of these people, or on this address however another
    record writes it ("12 Elm St" is flagged for "12 Elm St, Madison" and "12 Elm St,
    front yard", and the other way), oldest first."""
    conds: list[ColumnElement[bool]] = []
    if person_ids:
        conds.append(CautionFlag.person_id.in_(list(person_ids)))
    key, part = rules.address_key(address), rules.street_part(address)
    if key:
        conds.append(CautionFlag.address_key == key)
    if part:
        conds += [
            CautionFlag.address_key == part,
            CautionFlag.address_key.startswith(part + " ", autoescape=True),
        ]
    if not conds:
        return ()
    return s.scalars(
        select(CautionFlag)
        .where(CautionFlag.cleared_at.is_(None), or_(*conds))
        .order_by(CautionFlag.set_at, CautionFlag.id)
    ).all()


def active_flags(s: Session, person_ids: Sequence[int], address: str = "") -> tuple[FlagView, ...]:
    """The cautions standing on any of these people or at the address, oldest first."""
    return tuple(flag_view(s, f) for f in _standing(s, person_ids, address))


def cautions(s: Session, person_ids: tuple[int, ...], address: str) -> list[Caution]:
    """The module's answer on the seam (``Module.cautions``): the same standing flags."""
    out = []
    for f in active_flags(s, person_ids, address):
        text = f"{f.person or f.address}: {f.reason}"
        out.append(Caution("call", "caution", f.id, text, f.reason, f.set_by, f.set_at))
    return out


def flags_for(
    db: Database, person_ids: Sequence[int] = (), address: str = ""
) -> tuple[FlagView, ...]:
    with db.read() as s:
        return active_flags(s, person_ids, address)


@requires(Permission.OVERRIDES)
def set_flag(
    db: Database,
    actor: Actor,
    *,
    reason: str,
    person_id: int | None = None,
    address: str = "",
    at: datetime | None = None,
) -> FlagView:
    """A supervisor flags a person or an address for caution (a dog that has attacked, a
    resident who threatened an officer)."""
    c = Collector()
    reason = (reason or "").strip()
    v.required(c, "reason", reason, "The reason for the caution", 2000)
    address = v.clean(address)
    v.optional_len(c, "address", address, "The address", CautionFlag.__table__.c.address)
    c.check(
        person_id is not None or bool(address),
        "person_id",
        "Choose the person or give the address the caution is on.",
    )
    c.raise_if_any()
    with db.write() as s:
        if person_id is not None and (
            not v.row_id_fits(person_id) or s.get(Person, person_id) is None
        ):
            raise NotFoundError(f"There is no person #{person_id}.")
        f = CautionFlag(
            person_id=person_id,
            address=address,
            address_key=rules.address_key(address),
            reason=reason,
            set_at=at or now(),
            set_by=actor.username,
        )
        s.add(f)
        s.flush()
        audit(s, actor, "set_caution", ENTITY, f.id, after=snapshot(f, FIELDS), reason=reason)
        return flag_view(s, f)


@requires(Permission.OVERRIDES)
def clear_flag(db: Database, actor: Actor, flag_id: int, version: int, reason: str) -> FlagView:
    """A supervisor clears a caution, saying why; it stays on record, cleared."""
    reason = (reason or "").strip()
    c = Collector()
    v.required(c, "clear_reason", reason, "The reason for clearing the caution", 2000)
    c.raise_if_any()
    with db.write() as s:
        require_row_id(CautionFlag, flag_id)
        f = s.get(CautionFlag, flag_id, with_for_update=True)
        if f is None:
            raise NotFoundError(f"There is no caution #{flag_id}.")
        if f.version != version:
            raise StaleRecordError(
                f"Caution #{flag_id} was changed by someone else since it was opened: reopen it."
            )
        if f.cleared_at is not None:
            raise StaleRecordError(f"Caution #{flag_id} was already cleared.")
        f.cleared_at = now()
        f.cleared_by = actor.username
        f.clear_reason = reason
        s.flush()
        audit(
            s,
            actor,
            "clear_caution",
            ENTITY,
            f.id,
            before={"cleared_at": None},
            after={"cleared_at": f.cleared_at, "cleared_by": actor.username},
            reason=reason,
        )
        return flag_view(s, f)
