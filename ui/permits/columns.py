"""How permits show in the list."""

from __future__ import annotations

from fieldops.services.permits.listing import PermitRow
from ui.common.table_models import Column, number_column
from ui.common.text import day
from ui.context import AppContext


def status(row: PermitRow, ctx: AppContext) -> str:
    """The status in words; an issued permit whose year has ended reads "Expired"."""
    if row.status == "issued" and row.expires_on is not None and row.expires_on < ctx.today():
        return "Expired"
    return row.status_label


def permit_columns(ctx: AppContext) -> tuple[Column, ...]:
    return (
        number_column(),
        Column("Kind", lambda r: r.kind_label, 170),
        Column("Holder", lambda r: r.holder, 170),
        Column("Address", lambda r: r.address, 220, stretch=True),
        Column("Status", lambda r: status(r, ctx), 200),
        Column("Year", lambda r: str(r.year), 60),
        Column("Expires", lambda r: day(r.expires_on) if r.expires_on else "", 130),
        Column("Appeal by", lambda r: day(r.appeal_by) if r.appeal_by else "", 130),
        Column("List due", lambda r: day(r.list_update_due) if r.list_update_due else "", 130),
    )


# Column -> PermitFilter sort key.
SORT_KEYS: dict[int, str] = {0: "number", 2: "holder", 6: "expires"}
