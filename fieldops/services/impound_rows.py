"""An impoundment's rows as the pound's services load them inside a unit of work.

Below both the impoundment and the payment services, so that each can use
them without importing the other.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.models import Disposition, Impoundment
from fieldops.errors import NotFoundError
from fieldops.services.context import require_row_id


def load_impoundment(s: Session, impoundment_id: int, *, lock: bool = False) -> Impoundment:
    """The impoundment; ``lock`` holds its row until commit (FOR UPDATE on PostgreSQL;
    SQLite's IMMEDIATE write transaction already serialises writers), so two
    workstations recording a disposition at once cannot both see it open."""
    require_row_id(Impoundment, impoundment_id)
    imp = s.get(Impoundment, impoundment_id, with_for_update=lock)
    if imp is None:
        raise NotFoundError(f"There is no impoundment #{impoundment_id}.")
    return imp


def current_disposition(s: Session, impoundment_id: int) -> Disposition | None:
    """The disposition in force: the one no later correction supersedes."""
    rows = s.scalars(
        select(Disposition)
        .where(Disposition.impoundment_id == impoundment_id)
        .order_by(Disposition.id)
    ).all()
    return current_of(rows)


def current_of(rows: Sequence[Disposition]) -> Disposition | None:
    """The disposition in force among an impoundment's dispositions in id order."""
    corrected = {d.corrects_id for d in rows if d.corrects_id is not None}
    live = [d for d in rows if d.id not in corrected]
    return live[-1] if live else None
