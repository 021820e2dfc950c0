"""A small module of the kind a later issue adds, built only from the seam's public parts.

"Leash permits": one overridable block on every release (no permit on
record), one overdue due item, a record opener's key, a demo fragment and an
integrity problem. Tests install it with ``fieldops.modules.extra``.
"""

from __future__ import annotations

from datetime import timedelta

from fieldops.modules import DueItem, Module
from fieldops.rules import Requirement

KEY, KIND, RECORD_ID = "leash", "permit", 4242
CODE = "leash.permit_current"
LABEL = "A current leash permit for the animal"
CATEGORY, CATEGORY_LABEL = "leash.permit_expired", "Leash permit expired"
PROBLEM = "3 leash permit(s) name no holder"


def release_blocks(_session, _animal_id, release):
    return (
        Requirement(
            code=CODE,
            label=LABEL,
            section="58-999(a)",
            satisfied=False,
            overridable=True,
            detail="No current leash permit is on record.",
            evidence=f"Checked for a {release.kind} release",
        ),
    )


def due_items(_db, day, _profile):
    return (
        DueItem(
            module=KEY,
            kind=KIND,
            record_id=RECORD_ID,
            due=day - timedelta(days=2),
            category=CATEGORY,
            category_label=CATEGORY_LABEL,
            text=f"Permit #{RECORD_ID}: expired two days ago",
            overdue=True,
        ),
    )


LEASH = Module(
    KEY,
    "Leash permits",
    release_blocks=release_blocks,
    due_items=due_items,
    categories={CATEGORY: CATEGORY_LABEL},
    demo=lambda d: "2 leash permits",
    checks=lambda conn: [PROBLEM],
)
