"""indexes the lists need at a city's scale (the quarantines list's sorts and filters)

The impoundment's owner and custody day were indexed already (0004, 0008), and
its current status is a copy the triggers of 0004 keep in the disposition's
own transaction. A period of the impounds list in time order sorted the
period's rows (98 ms for a year at 100,000). The quarantines list had an index only for its default sort
(open, by last day): "All" or "Closed" sorted by the bite day, the animal, the
owner, the last day or the status sorted every quarantine for a page of 100,
and "Certificates overdue" read every certified quarantine to find the few
whose certificate never arrived.

Plain index operations, not a batch: a batch on SQLite recreates the table and
drops its triggers (the list's full-text search among them).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

# Each sort of the quarantines list across statuses, with the id that breaks ties.
QUARANTINE_ORDERS = {
    "ix_quarantine_order_first_exam_day": ["first_exam_day", "id"],
    "ix_quarantine_order_animal_name": ["animal_name", "id"],
    "ix_quarantine_order_owner_name": ["owner_name", "id"],
    "ix_quarantine_order_last_day": ["last_day", "id"],
    "ix_quarantine_order_status": ["status", "id"],
}


def upgrade() -> None:
    # A period of the impounds list in time order: the custody day's range and the order
    # from one index (the custody day is the local date of the impoundment).
    op.create_index(
        "ix_impoundment_custody_day_order", "impoundment", ["custody_day", "impounded_at", "id"]
    )
    for name, columns in QUARANTINE_ORDERS.items():
        op.create_index(name, "quarantine", columns)
    # The certificates not received: few, found without reading the certified ones.
    op.create_index(
        "ix_quarantine_certificate_received",
        "quarantine",
        ["certificate_received_on", "certificate_due"],
    )


def downgrade() -> None:
    op.drop_index("ix_quarantine_certificate_received", table_name="quarantine")
    for name in reversed(QUARANTINE_ORDERS):
        op.drop_index(name, table_name="quarantine")
    op.drop_index("ix_impoundment_custody_day_order", table_name="impoundment")
