"""bite quarantine: bite reports, quarantine orders, examinations and events (58-527)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 08:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

# The bite report, the exams and the events are legal records: the database refuses to
# change or delete them, as it does the pound's (migration 0002; same function on
# PostgreSQL, which 0002 created). The quarantine row itself holds copies of the current
# state and is updated by the services, with an audit event each time.
IMMUTABLE = ("bite_report", "quarantine_exam", "quarantine_event")


def _create_immutability(dialect: str) -> None:
    for table in IMMUTABLE:
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


def _drop_immutability(dialect: str) -> None:
    for table in IMMUTABLE:
        if dialect == "sqlite":
            for event in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{event}")
        elif dialect == "postgresql":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_immutable ON {table}")


def upgrade() -> None:
    op.create_table(
        "bite_report",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bitten_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("place", sa.String(length=300), nullable=False),
        sa.Column("victim_name", sa.String(length=200), nullable=False),
        sa.Column("victim_contact", sa.Text(), nullable=False),
        sa.Column("species", sa.String(length=10), nullable=False),
        sa.Column("animal_id", sa.Integer(), nullable=True),
        sa.Column("animal_description", sa.String(length=300), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("owner_unknown", sa.Boolean(), nullable=False),
        sa.Column("impoundment_id", sa.Integer(), nullable=True),
        sa.Column("reported_by", sa.String(length=200), nullable=False),
        sa.Column("reported_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("rabies_certificate", sa.String(length=50), nullable=False),
        sa.Column("rabies_vaccinated_on", sa.Date(), nullable=True),
        sa.Column("rabies_expires_on", sa.Date(), nullable=True),
        sa.Column("rabies_proof", sa.Boolean(), nullable=False),
        sa.Column("officer", sa.String(length=200), nullable=False),
        sa.Column("referral", sa.Boolean(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "species IN ('dog', 'cat', 'other')", name=op.f("ck_bite_report_species")
        ),
        sa.ForeignKeyConstraint(
            ["animal_id"], ["animal.id"], name=op.f("fk_bite_report_animal_id_animal")
        ),
        sa.ForeignKeyConstraint(
            ["impoundment_id"],
            ["impoundment.id"],
            name=op.f("fk_bite_report_impoundment_id_impoundment"),
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["person.id"], name=op.f("fk_bite_report_owner_id_person")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bite_report")),
    )
    op.create_index(op.f("ix_bite_report_animal_id"), "bite_report", ["animal_id"], unique=False)
    op.create_index("ix_bite_report_bitten_at", "bite_report", ["bitten_at"], unique=False)
    op.create_table(
        "quarantine",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bite_report_id", sa.Integer(), nullable=False),
        sa.Column("animal_id", sa.Integer(), nullable=True),
        sa.Column("ordered_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("ordered_placement", sa.String(length=10), nullable=False),
        sa.Column("ordered_clinic_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("placement", sa.String(length=10), nullable=False),
        sa.Column("clinic_id", sa.Integer(), nullable=True),
        sa.Column("deliver_by", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("first_exam_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.Column("certificate_due", sa.Date(), nullable=False),
        sa.Column("certificate_received_on", sa.Date(), nullable=True),
        sa.Column("next_exam_due", sa.Date(), nullable=True),
        sa.Column("next_exam_by", sa.Date(), nullable=True),
        sa.Column("closed_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("animal_name", sa.String(length=300), nullable=False),
        sa.Column("owner_name", sa.String(length=200), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.Column("created_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("placement IN ('home', 'clinic')", name=op.f("ck_quarantine_placement")),
        sa.CheckConstraint(
            "status IN ('open', 'certified', 'died', 'euthanized', 'escaped')",
            name=op.f("ck_quarantine_status"),
        ),
        sa.ForeignKeyConstraint(
            ["animal_id"], ["animal.id"], name=op.f("fk_quarantine_animal_id_animal")
        ),
        sa.ForeignKeyConstraint(
            ["bite_report_id"],
            ["bite_report.id"],
            name=op.f("fk_quarantine_bite_report_id_bite_report"),
        ),
        sa.ForeignKeyConstraint(
            ["clinic_id"], ["clinic.id"], name=op.f("fk_quarantine_clinic_id_clinic")
        ),
        sa.ForeignKeyConstraint(
            ["ordered_clinic_id"],
            ["clinic.id"],
            name=op.f("fk_quarantine_ordered_clinic_id_clinic"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quarantine")),
        sa.UniqueConstraint("bite_report_id", name=op.f("uq_quarantine_bite_report_id")),
    )
    op.create_index(
        "ix_quarantine_animal_status", "quarantine", ["animal_id", "status"], unique=False
    )
    op.create_index(
        "ix_quarantine_certificate_due", "quarantine", ["certificate_due"], unique=False
    )
    op.create_index("ix_quarantine_deliver_by", "quarantine", ["deliver_by"], unique=False)
    op.create_index("ix_quarantine_next_exam_by", "quarantine", ["next_exam_by"], unique=False)
    op.create_index(
        "ix_quarantine_status_last_day", "quarantine", ["status", "last_day", "id"], unique=False
    )
    op.create_table(
        "quarantine_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bite_report_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("clinic_id", sa.Integer(), nullable=True),
        sa.Column("new_last_day", sa.Date(), nullable=True),
        sa.Column("received_on", sa.Date(), nullable=True),
        sa.Column("citation", sa.String(length=100), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "kind IN ('delivered', 'broken_home', 'extended', 'signs_of_rabies', 'died', 'euthanized', 'specimen_sent', 'escaped', 'certificate_received', 'released', 'referral_sent')",
            name=op.f("ck_quarantine_event_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["bite_report_id"],
            ["bite_report.id"],
            name=op.f("fk_quarantine_event_bite_report_id_bite_report"),
        ),
        sa.ForeignKeyConstraint(
            ["clinic_id"], ["clinic.id"], name=op.f("fk_quarantine_event_clinic_id_clinic")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quarantine_event")),
    )
    op.create_index(
        op.f("ix_quarantine_event_bite_report_id"),
        "quarantine_event",
        ["bite_report_id"],
        unique=False,
    )
    op.create_table(
        "quarantine_exam",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("quarantine_id", sa.Integer(), nullable=False),
        sa.Column("examined_on", sa.Date(), nullable=False),
        sa.Column("veterinarian", sa.String(length=200), nullable=False),
        sa.Column("clinic_id", sa.Integer(), nullable=True),
        sa.Column("finding", sa.String(length=20), nullable=False),
        sa.Column("fee", fieldops.db.types.Money(), nullable=False),
        sa.Column("slot", sa.String(length=12), nullable=True),
        sa.Column("warning", sa.Text(), nullable=False),
        sa.Column("recorded_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint(
            "finding IN ('no_signs', 'signs_of_rabies', 'died')",
            name=op.f("ck_quarantine_exam_finding"),
        ),
        sa.CheckConstraint("fee >= 0", name=op.f("ck_quarantine_exam_fee")),
        sa.ForeignKeyConstraint(
            ["clinic_id"], ["clinic.id"], name=op.f("fk_quarantine_exam_clinic_id_clinic")
        ),
        sa.ForeignKeyConstraint(
            ["quarantine_id"],
            ["quarantine.id"],
            name=op.f("fk_quarantine_exam_quarantine_id_quarantine"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quarantine_exam")),
    )
    op.create_index(
        op.f("ix_quarantine_exam_quarantine_id"), "quarantine_exam", ["quarantine_id"], unique=False
    )

    _create_immutability(op.get_bind().dialect.name)


def downgrade() -> None:
    _drop_immutability(op.get_bind().dialect.name)
    op.drop_table("quarantine_exam")
    op.drop_table("quarantine_event")
    op.drop_table("quarantine")
    op.drop_table("bite_report")
