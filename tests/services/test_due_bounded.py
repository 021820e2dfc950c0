"""What is due costs what is due, not the table (issue 14): on a database with many
closed records and a few due, the statements Today sends and the rows they return
stay the same when the closed history grows. On SQLite and PostgreSQL (``db``)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from due_support import reads
from sqlalchemy import insert

from fieldops.db.models import BiteReport, QuarantineEvent
from fieldops.services.quarantine import module as quarantine_module

AT = datetime(2026, 11, 1, 15, 0, tzinfo=UTC)
TODAY = date(2026, 11, 30)


def add_referred_bites(db: Any, n: int, *, sent: bool) -> None:
    """``n`` bites of an animal neither dog nor cat, referred (``sent``) or still to refer."""
    with db.write() as s:
        ids = []
        for _ in range(n):
            bite = {
                "bitten_at": AT,
                "place": "Park",
                "victim_name": "V",
                "species": "other",
                "animal_description": "ferret",
                "reported_by": "R",
                "reported_at": AT,
                "officer": "O",
                "referral": True,
                "recorded_at": AT,
                "recorded_by": "t",
            }
            ids.append(s.execute(insert(BiteReport).values(bite)).inserted_primary_key[0])
        if sent:
            for kind in ("referral_sent", "specimen_sent"):
                s.execute(
                    insert(QuarantineEvent),
                    [
                        {
                            "bite_report_id": i,
                            "kind": kind,
                            "at": AT,
                            "recorded_at": AT,
                            "recorded_by": "t",
                        }
                        for i in ids
                    ],
                )


def test_quarantine_items_do_not_read_the_closed_history(db, profile):
    add_referred_bites(db, 2, sent=False)
    add_referred_bites(db, 20, sent=True)

    def due() -> Any:
        return quarantine_module.due_items(db, TODAY, profile)

    cats = [i.category for i in due()]
    assert cats == ["quarantine.referral_not_sent"] * 2
    small = reads(db, due)
    add_referred_bites(db, 200, sent=True)
    assert [i.category for i in due()] == cats
    assert reads(db, due) == small  # no more statements, no more rows
