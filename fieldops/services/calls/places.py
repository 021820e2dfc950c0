"""History by address and by owner: every record of every module at an address or of a
person, newest first (what an officer wants to know before knocking).

Each module answers for its own records through the seam (``Module.places``); this
module answers for its calls and citations."""

from __future__ import annotations

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from fieldops.db.models import CallCitation, CallParty, FieldCall
from fieldops.modules import Incident
from fieldops.rules import calls as rules


def places(session: Session, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    """This module's part: calls at the address or involving these people (the caller,
    the owner or anyone listed as involved), and citations."""
    key = rules.address_key(address)
    part = rules.street_part(address)
    where: list[ColumnElement[bool]] = []
    if person_ids:
        involved = select(CallParty.call_id).where(CallParty.person_id.in_(person_ids))
        where += [
            FieldCall.owner_id.in_(person_ids),
            FieldCall.caller_id.in_(person_ids),
            FieldCall.id.in_(involved),  # a witness, a victim, a keeper: any role
        ]
    if key:
        where.append(FieldCall.address_key == key)
    if part:
        where.append(func.lower(FieldCall.address).contains(part, autoescape=True))
    out: list[Incident] = []
    if where:
        for c in session.scalars(
            select(FieldCall).where(or_(*where)).order_by(FieldCall.received_at.desc()).limit(200)
        ):
            state = rules.OUTCOMES.get(c.outcome or "", c.status)
            out.append(
                Incident(
                    "call",
                    "call",
                    c.id,
                    c.received_at,
                    c.address,
                    f"Call #{c.id}: {rules.kind_label(c.kind)} ({state.lower()})",
                )
            )
    cwhere: list[ColumnElement[bool]] = (
        [CallCitation.person_id.in_(person_ids)] if person_ids else []
    )
    if key:
        cwhere.append(CallCitation.address_key == key)
    if cwhere:
        for t in session.scalars(
            select(CallCitation)
            .where(or_(*cwhere))
            .order_by(CallCitation.issued_at.desc())
            .limit(200)
        ):
            money = f"${t.forfeiture}" if t.forfeiture else "warning"
            out.append(
                Incident(
                    "call",
                    "citation",
                    t.id,
                    t.issued_at,
                    t.address,
                    f"Citation #{t.id}: {t.section}, offence {t.offence_number} ({money})"
                    + ("" if t.paid_on or not t.forfeiture else ", unpaid"),
                )
            )
    return out
