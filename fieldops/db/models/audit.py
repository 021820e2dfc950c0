"""The audit trail: one row per change, written in the change's own transaction.

Every event is a link of a hash chain. Its ``body`` is the canonical JSON
(sorted keys, no whitespace, UTF-8, instants in ISO 8601 UTC) of who, when,
which record, what, before, after and reason, together with the event's
sequence number and the previous event's hash; ``hash`` is the SHA-256 of that
body. Changing, removing, reordering or cutting off events breaks the chain
(``fieldops check`` names the first broken one). The single ``audit_chain``
row is the chain's head (last sequence number and hash): appending locks it,
so two workstations never fork the chain. ``audit_event`` itself is
append-only (triggers, migrations 0002 and 0014); the head row is the only
part of the trail that is ever updated.
"""

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base
from fieldops.db.types import UTCDateTime

#: The "previous hash" of the first event.
GENESIS = "0" * 64


class AuditEvent(Base):
    __tablename__ = "audit_event"
    __table_args__ = (
        Index("ix_audit_event_entity", "entity", "entity_id"),
        Index("ix_audit_event_seq", "seq", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(40))
    entity: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[int]
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    reason: Mapped[str] = mapped_column(Text, default="")
    seq: Mapped[int]
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)


class AuditChainHead(Base):
    """The one row holding the chain's last sequence number and hash (id 1)."""

    __tablename__ = "audit_chain"
    __table_args__ = (CheckConstraint("id = 1", name="one_row"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int]
    hash: Mapped[str] = mapped_column(String(64))


def canonical_json(value: Any) -> str:
    """The one text form of a JSON value: sorted keys, no whitespace, non-ASCII kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def iso_utc(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def event_body(
    *,
    seq: int,
    prev_hash: str,
    at: datetime,
    actor: str,
    action: str,
    entity: str,
    entity_id: int,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    reason: str,
) -> str:
    """The canonical JSON an event's hash covers (``before``/``after`` already JSON values)."""
    return canonical_json(
        {
            "seq": seq,
            "prev": prev_hash,
            "at": iso_utc(at),
            "actor": actor,
            "action": action,
            "entity": entity,
            "entity_id": entity_id,
            "before": before,
            "after": after,
            "reason": reason,
        }
    )


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()
