"""due indexes: Today and the activity summary at a city's scale

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-01 21:15:00

The activity summary reads a period and the same period a year earlier of
intakes (custody day), dispositions (their instant), payments and their lines,
field calls (received) with their first arrival, and quarantine orders. Each
statement found its rows by a range, then read every row from the table for a
code or two: at 1,000,000 impoundments a year is 100,000 table rows a statement
(or a read of every row where no index had the column). These indexes hold the
range's column first and the codes the statement counts after it, so each
statement reads its period from one index alone.

``ix_payment_line_payment_id`` keeps its name and its first column (a payment's
lines) and now carries the line's kind and amount: the fees by kind are read
from it without the table. (A second index on ``payment_id`` beside the old one
would be passed over by SQLite's planner, which knows the old one's size.)
"""

from __future__ import annotations

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

INDEXES = (
    (
        "ix_impoundment_custody_activity",
        "impoundment",
        ["custody_day", "animal_species", "reason", "repeat_of_id"],
    ),
    (
        "ix_impoundment_disposition_activity",
        "impoundment",
        ["disposition_at", "disposition_kind", "custody_day"],
    ),
    ("ix_payment_paid_at", "payment", ["paid_at"]),
    (
        "ix_field_call_received_activity",
        "field_call",
        ["received_at", "kind", "received_how", "outcome", "status"],
    ),
    ("ix_call_dispatch_call_arrived", "call_dispatch", ["call_id", "arrived_at"]),
    (
        "ix_quarantine_ordered_activity",
        "quarantine",
        ["ordered_at", "ordered_placement", "status"],
    ),
)


def upgrade() -> None:
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)
    op.drop_index("ix_payment_line_payment_id", table_name="payment_line")
    op.create_index("ix_payment_line_payment_id", "payment_line", ["payment_id", "kind", "amount"])


def downgrade() -> None:
    op.drop_index("ix_payment_line_payment_id", table_name="payment_line")
    op.create_index("ix_payment_line_payment_id", "payment_line", ["payment_id"])
    for name, table, _columns in reversed(INDEXES):
        op.drop_index(name, table_name=table)
