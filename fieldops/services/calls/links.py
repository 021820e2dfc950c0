"""Another module's record opened from a call (a bite report from a bite call, a vicious
case from a vicious-animal call), linked back by the seam's (module, kind, id).

The calls module never reads the other module's tables: a link names the record as
``ui.modules.open_record`` opens it. A link is written once and never changed
(append-only); linking the same record again is no second link.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops import modules
from fieldops.db.engine import Database
from fieldops.db.models import CallLink, FieldCall
from fieldops.errors import Collector
from fieldops.permissions import Permission, requires
from fieldops.services import validate as v
from fieldops.services.calls.followups import FollowUpView, follow_up_pending, follow_ups_of
from fieldops.services.calls.records import load
from fieldops.services.context import Actor, audit, now

ENTITY = "field_call"


@dataclass(frozen=True)
class LinkView:
    id: int
    module: str
    kind: str
    record_id: int
    linked_at: datetime
    linked_by: str

    @property
    def words(self) -> str:
        """ "Bite quarantines: bite #12" """
        return (
            f"{modules.module_title(self.module)}: {self.kind.replace('_', ' ')} #{self.record_id}"
        )


@dataclass(frozen=True)
class CallActions:
    """What the call view shows beside the call: its links and its follow-ups done."""

    call_id: int
    links: tuple[LinkView, ...]
    follow_ups: tuple[FollowUpView, ...]
    follow_up_open: bool  # a follow-up date not yet done (a recheck also closes it)


def _links(s: Session, call_id: int) -> tuple[LinkView, ...]:
    return tuple(
        LinkView(r.id, r.module, r.kind, r.record_id, r.linked_at, r.linked_by)
        for r in s.scalars(
            select(CallLink).where(CallLink.call_id == call_id).order_by(CallLink.id)
        )
    )


def call_actions(db: Database, call_id: int) -> CallActions:
    with db.read() as s:
        call = load(s, call_id)
        pending = s.scalar(
            select(FieldCall.id).where(
                FieldCall.id == call.id, FieldCall.follow_up_on.is_not(None), follow_up_pending()
            )
        )
        return CallActions(call.id, _links(s, call.id), follow_ups_of(s, call.id), bool(pending))


@requires(Permission.CALLS)
def link_record(
    db: Database, actor: Actor, call_id: int, module: str, kind: str, record_id: int
) -> CallActions:
    """Link the record (``module``, ``kind``, ``record_id``) to the call it was opened from."""
    c = Collector()
    keys = {m.key for m in modules.installed_modules()}
    c.check(module in keys, "module", f"No installed module is called {module!r}.")
    v.required(c, "kind", v.clean(kind), "The kind of record", 40)
    c.check(v.row_id_fits(record_id) and record_id > 0, "record_id", "Not a record number.")
    c.raise_if_any()
    with db.write() as s:
        call = load(s, call_id, lock=True)
        done = s.scalar(
            select(CallLink.id).where(
                CallLink.call_id == call.id,
                CallLink.module == module,
                CallLink.kind == kind,
                CallLink.record_id == record_id,
            )
        )
        if done is None:
            row = CallLink(
                call_id=call.id,
                module=module,
                kind=kind,
                record_id=record_id,
                linked_at=now(),
                linked_by=actor.username,
            )
            s.add(row)
            s.flush()
            audit(
                s,
                actor,
                "link_record",
                ENTITY,
                call.id,
                after={"module": module, "kind": kind, "record_id": record_id, "link": row.id},
            )
    return call_actions(db, call_id)
