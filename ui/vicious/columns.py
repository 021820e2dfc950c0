"""How vicious-animal cases show in the list."""

from __future__ import annotations

from fieldops.rules import format_instant
from ui.common.table_models import Column, number_column
from ui.common.text import day
from ui.context import AppContext


def case_columns(ctx: AppContext) -> tuple[Column, ...]:
    """The cases list; the countdown is read against ``ctx.now()`` each time it is painted,
    and the page repaints it every half minute, so it stays live."""
    return (
        number_column(),
        Column(
            "Status",
            lambda r: "OVERDUE: notice expired" if r.overdue_at(ctx.now()) else r.status_label,
            200,
        ),
        Column("Animal", lambda r: r.animal, 190, stretch=True),
        Column("Owner", lambda r: r.owner, 130),
        Column(
            "Notice deadline",
            lambda r: (
                format_instant(r.notice_deadline, ctx.profile)
                if r.notice_deadline is not None and r.status == "served"
                else ""
            ),
            0,
            fits="Wed 30 Sep 2026 12:00 PM CDT",
            fits_bold=True,  # an overdue row is bold throughout
        ),
        Column(
            "Time left",
            lambda r: r.countdown(ctx.now()),
            0,
            fits="overdue by 99 d 23 h 59 min",  # a notice months overdue reads whole
            fits_bold=True,
        ),
        Column(
            "Next step due",
            lambda r: day(r.next_step_due) if r.next_step_due else "",
            130,
            fits="Wed 30 Sep 2026",
            fits_bold=True,  # a step past its day is bold (list_model.py)
        ),
        Column("Decided", lambda r: day(ctx.local_time(r.opened_at).date()), 130),
    )


COUNTDOWN_COLUMN = 5
STEP_COLUMN = 6
# Column -> CaseFilter sort key.
SORT_KEYS: dict[int, str] = {4: "deadline", 5: "deadline", 7: "opened"}
