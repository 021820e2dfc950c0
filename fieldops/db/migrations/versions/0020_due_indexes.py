"""indexes for what is due (Today, fieldops due) to read only open cases

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01 17:00:00

Today's quarantine items ask, per case, whether an event of a kind was recorded
(referral sent, specimen sent, signs of rabies reported) and which exams found
signs of rabies. These indexes let those questions be index probes instead of a
read of every event, bite and exam ever recorded. Today's count of dogs to renew
(last year's licences without this year's) reads the two dog_licence indexes only.
"""

from __future__ import annotations

from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_quarantine_event_bite_kind", "quarantine_event", ["bite_report_id", "kind"])
    op.create_index("ix_quarantine_exam_finding", "quarantine_exam", ["finding", "quarantine_id"])
    op.create_index("ix_bite_report_referral", "bite_report", ["referral", "id"])
    # Today's count of dogs to renew: read from these two indexes alone.
    op.create_index(
        "ix_dog_licence_year_animal", "dog_licence", ["status", "licence_year", "animal_id"]
    )
    op.create_index(
        "ix_dog_licence_animal_year_status", "dog_licence", ["animal_id", "licence_year", "status"]
    )


def downgrade() -> None:
    op.drop_index("ix_dog_licence_animal_year_status", table_name="dog_licence")
    op.drop_index("ix_dog_licence_year_animal", table_name="dog_licence")
    op.drop_index("ix_bite_report_referral", table_name="bite_report")
    op.drop_index("ix_quarantine_exam_finding", table_name="quarantine_exam")
    op.drop_index("ix_quarantine_event_bite_kind", table_name="quarantine_event")
