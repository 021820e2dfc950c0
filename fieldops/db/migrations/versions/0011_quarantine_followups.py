"""bite quarantines: what the officer's follow-up work needs.

- ``clinic.is_pound``: the pound registered as a clinic; a quarantine there is paid at
  the pound's counter.
- ``quarantine_correction``: a supervisor's correction of a field of a bite report, an
  exam or an event, with the reason; append-only like the records it corrects.
- ``payment_line.charge``: the module charge a payment line settles (a quarantine's
  exams and boarding at the pound), "" for the pound's own fees. Added with
  ``op.add_column`` so the append-only triggers on ``payment_line`` stay.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _immutable(dialect: str, table: str) -> None:
    """The database refuses to change or delete a correction (as migration 0009 does)."""
    if dialect == "sqlite":
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} rows are never changed or deleted'); END"
            )
    elif dialect == "postgresql":
        op.execute(
            f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION fieldops_immutable()"
        )


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        "quarantine_correction",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bite_report_id", sa.Integer(), nullable=False),
        sa.Column("target", sa.String(length=12), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=40), nullable=False),
        sa.Column("old_value", sa.Text(), nullable=False),
        sa.Column("new_value", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "target IN ('bite_report', 'exam', 'event')",
            name=op.f("ck_quarantine_correction_target"),
        ),
        sa.ForeignKeyConstraint(
            ["bite_report_id"],
            ["bite_report.id"],
            name=op.f("fk_quarantine_correction_bite_report_id_bite_report"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quarantine_correction")),
    )
    op.create_index(
        "ix_quarantine_correction_bite",
        "quarantine_correction",
        ["bite_report_id", "id"],
        unique=False,
    )
    _immutable(dialect, "quarantine_correction")
    op.add_column(
        "clinic", sa.Column("is_pound", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "payment_line",
        sa.Column("charge", sa.String(length=80), nullable=False, server_default=""),
    )


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        for event in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS quarantine_correction_no_{event}")
    elif dialect == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS quarantine_correction_immutable ON quarantine_correction")
    op.drop_index("ix_quarantine_correction_bite", table_name="quarantine_correction")
    op.drop_table("quarantine_correction")
    op.drop_column("payment_line", "charge")
    op.drop_column("clinic", "is_pound")
