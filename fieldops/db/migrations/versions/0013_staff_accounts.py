"""staff accounts: passwords, lockout and sign-in; the command line's login mapping.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from fieldops.db.types import UTCDateTime

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

# Plain add_column, not a batch: a batch recreates the table and drops its triggers.
# Existing staff get no password: the window asks an administrator to set one, and
# until then they cannot sign in (there is no default password anywhere).


def upgrade() -> None:
    op.add_column("staff_user", sa.Column("password_hash", sa.String(200), nullable=True))
    op.add_column(
        "staff_user",
        sa.Column("must_change_password", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "staff_user",
        sa.Column("failed_attempts", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.add_column(
        "staff_user", sa.Column("locked_until", UTCDateTime(timezone=True), nullable=True)
    )
    op.add_column("staff_user", sa.Column("os_user", sa.String(100), nullable=True))
    op.create_index("ix_staff_user_os_user", "staff_user", ["os_user"], unique=True)
    op.create_table(
        "app_setting",
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("value", sa.String(500), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("app_setting")
    op.drop_index("ix_staff_user_os_user", table_name="staff_user")
    for column in ("os_user", "locked_until", "failed_attempts", "must_change_password"):
        op.drop_column("staff_user", column)
    op.drop_column("staff_user", "password_hash")
