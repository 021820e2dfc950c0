"""Permits in the calls module's history by address and by owner (``Module.places``)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from fieldops.db.models import Permit
from fieldops.modules import Incident
from fieldops.rules.calls import street_part
from fieldops.services.permits.views import KIND_LABELS

KEY = "permit"


def places(session: Session, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    """Permits held by these people, or for animals kept at this address, newest first."""
    part = street_part(address)
    where: list[ColumnElement[bool]] = [Permit.holder_id.in_(person_ids)] if person_ids else []
    if part:
        where.append(func.lower(Permit.address).contains(part, autoescape=True))
    if not where:
        return []
    rows = session.scalars(
        select(Permit).where(or_(*where)).order_by(Permit.created_at.desc()).limit(200)
    )
    return [
        Incident(
            KEY,
            "permit",
            p.id,
            p.created_at,
            p.address,
            f"{KIND_LABELS.get(p.kind, p.kind)} #{p.id} for {p.year} "
            f"({p.status.replace('_', ' ')})",
        )
        for p in rows
    ]
