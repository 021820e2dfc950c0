"""How calls show in the list."""

from __future__ import annotations

from ui.common.table_models import Column, number_column
from ui.common.text import day
from ui.context import AppContext

STATUS_WORDS = {"open": "Not dispatched", "dispatched": "Dispatched", "closed": "Closed"}


def call_columns(ctx: AppContext) -> tuple[Column, ...]:
    return (
        number_column(),
        Column("Priority", lambda r: r.priority_label, 90),
        Column("Received", lambda r: ctx.local_time(r.received_at).strftime("%d %b %H:%M"), 110),
        Column("Kind", lambda r: r.kind_label, 220),
        Column(
            "Address",
            lambda r: ("⚠ CAUTION  " if r.flagged else "") + r.address,
            240,
            stretch=True,
        ),
        Column("Status", lambda r: r.outcome_label or STATUS_WORDS.get(r.status, r.status), 150),
        Column("Officer", lambda r: r.officer, 120),
        Column("Follow-up", lambda r: day(r.follow_up_on) if r.follow_up_on else "", 120),
    )
