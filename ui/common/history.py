"""A record's history as every area shows it: the core's sentences, in local time."""

from __future__ import annotations

from fieldops.rules import format_local
from ui.common.table_models import Column
from ui.context import AppContext


def history_columns(ctx: AppContext) -> tuple[Column, ...]:
    """A record's history (``fieldops.services.history``): the sentences, in local time."""
    return (
        Column("When", lambda h: format_local(h.at, ctx.timezone), 205),
        Column("Who", lambda h: h.who, 110),
        Column("What", lambda h: h.what, 150),
        Column("What happened", lambda h: h.sentence, 330),
        Column("Reason or notes", lambda h: h.reason, 170),
    )


HISTORY_SENTENCE_COLUMN = 3  # takes the spare width; rows grow to show it whole
