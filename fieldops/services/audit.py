"""Reading the audit trail: a record's events, and the chain's latest link."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from fieldops.db.engine import Database
from fieldops.db.models import AuditChainHead, AuditEvent


@dataclass(frozen=True)
class HistoryEntry:
    at: datetime
    actor: str
    action: str
    summary: str
    reason: str


def _summary(action: str, before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    if action in ("update", "correct_intake") and after:  # old value → new
        parts = [f"{k}: {(before or {}).get(k)!s} → {v!s}" for k, v in after.items()]
        return "; ".join(parts)
    if after:
        return ", ".join(f"{k}={v}" for k, v in after.items() if v not in ("", None, False))
    return ""


def history(db: Database, entity: str, entity_id: int) -> tuple[HistoryEntry, ...]:
    with db.read() as s:
        events = s.scalars(
            select(AuditEvent)
            .where(AuditEvent.entity == entity, AuditEvent.entity_id == entity_id)
            .order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
        ).all()
        return tuple(
            HistoryEntry(e.at, e.actor, e.action, _summary(e.action, e.before, e.after), e.reason)
            for e in events
        )


def audit_head(db: Database) -> str:
    """The trail's latest event as a report footer prints it: "audit #1234 3f9a0c2b7d1e".

    A printed report so carries the chain's state when it was made: a trail
    later cut back or rewritten no longer contains that event and hash.
    """
    with db.read() as s:
        head = s.get(AuditChainHead, 1)
    if head is None or head.seq == 0:
        return "audit #0"
    return f"audit #{head.seq} {head.hash[:12]}"
