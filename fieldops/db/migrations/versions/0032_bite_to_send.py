"""bite to send: Today's referrals and specimens still to send, kept instead of searched for

Today lists each referred bite with no referral sent on record, and each quarantined
animal that died or was euthanized with no specimen sent on record. Both were anti-joins
over the cases' whole history: at 1,000,000 impoundments, 10,000 referred bites and
4,059 dead animals, each probed for its event on every Today (about 10 ms of its 33 ms of
raw statements), to find none still to send.

``bite_to_send`` (kind, bite_report_id) holds what is still to send, named by the event
that ends it (``referral_sent``, ``specimen_sent``): the few open cases, not the history.
Triggers keep it in the same transaction as every change that can answer it: a bite
report written (``bite_report`` is append-only: its referral never changes), a
quarantine written, deleted or its status or bite changed, an event of either kind
recorded (``quarantine_event`` is append-only). ``fieldops check`` compares it with its
sources, ``migrate-to`` lets the target's triggers fill it, and the bench's generator
fills it after its load with the statements below.

Plain operations, not batch ones: a batch on SQLite recreates the table and drops its
triggers.

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-02 06:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran.
DEAD = "('died', 'euthanized')"
REFERRALS_TO_SEND = (
    "SELECT 'referral_sent', b.id FROM bite_report b WHERE b.referral AND NOT EXISTS "
    "(SELECT 1 FROM quarantine_event e WHERE e.bite_report_id = b.id "
    "AND e.kind = 'referral_sent')"
)
SPECIMENS_TO_SEND = (
    "SELECT 'specimen_sent', q.bite_report_id FROM quarantine q "
    f"WHERE q.status IN {DEAD} AND NOT EXISTS "
    "(SELECT 1 FROM quarantine_event e WHERE e.bite_report_id = q.bite_report_id "
    "AND e.kind = 'specimen_sent')"
)
FILL = tuple(
    f"INSERT INTO bite_to_send (kind, bite_report_id) {sql}"
    for sql in (REFERRALS_TO_SEND, SPECIMENS_TO_SEND)
)


def _specimens_of(*bites: str) -> str:
    """The specimen rows of ``bites`` (SQL expressions) made again from their sources."""
    among = ", ".join(bites)
    return (
        f"DELETE FROM bite_to_send WHERE kind = 'specimen_sent' AND bite_report_id IN ({among}); "
        f"INSERT INTO bite_to_send (kind, bite_report_id) {SPECIMENS_TO_SEND} "
        f"AND q.bite_report_id IN ({among}); "
    )


# No conflict clause in a trigger's statements: the statement that fired it would impose
# its own (0031).
SQLITE_TRIGGERS = {
    "bite_to_send_bite_ai": "AFTER INSERT ON bite_report WHEN new.referral "
    f"BEGIN INSERT INTO bite_to_send (kind, bite_report_id) {REFERRALS_TO_SEND} "
    "AND b.id = new.id; END",
    "bite_to_send_event_ai": "AFTER INSERT ON quarantine_event "
    "WHEN new.kind IN ('referral_sent', 'specimen_sent') BEGIN DELETE FROM bite_to_send "
    "WHERE kind = new.kind AND bite_report_id = new.bite_report_id; END",
    "bite_to_send_quarantine_ai": "AFTER INSERT ON quarantine "
    f"BEGIN {_specimens_of('new.bite_report_id')}END",
    "bite_to_send_quarantine_au": "AFTER UPDATE OF status, bite_report_id ON quarantine "
    "WHEN old.status IS NOT new.status OR old.bite_report_id IS NOT new.bite_report_id "
    f"BEGIN {_specimens_of('old.bite_report_id', 'new.bite_report_id')}END",
    "bite_to_send_quarantine_ad": "AFTER DELETE ON quarantine "
    f"BEGIN {_specimens_of('old.bite_report_id')}END",
}

# OLD is NULL on an insert, NEW on a delete: "IN" then names the bites there are.
PG_FUNCTIONS = {
    "fieldops_bite_to_send_referral": "BEGIN INSERT INTO bite_to_send (kind, bite_report_id) "
    f"{REFERRALS_TO_SEND} AND b.id = NEW.id; RETURN NULL; END",
    "fieldops_bite_to_send_sent": "BEGIN DELETE FROM bite_to_send "
    "WHERE kind = NEW.kind AND bite_report_id = NEW.bite_report_id; RETURN NULL; END",
    "fieldops_bite_to_send_specimen": "BEGIN IF TG_OP = 'UPDATE' "
    "AND OLD.status = NEW.status AND OLD.bite_report_id = NEW.bite_report_id "
    "THEN RETURN NULL; END IF; "
    f"{_specimens_of('OLD.bite_report_id', 'NEW.bite_report_id')}RETURN NULL; END",
}
PG_TRIGGERS = {
    "bite_to_send_bite": (
        "AFTER INSERT ON bite_report FOR EACH ROW WHEN (NEW.referral)",
        "fieldops_bite_to_send_referral",
    ),
    "bite_to_send_event": (
        "AFTER INSERT ON quarantine_event FOR EACH ROW "
        "WHEN (NEW.kind IN ('referral_sent', 'specimen_sent'))",
        "fieldops_bite_to_send_sent",
    ),
    "bite_to_send_quarantine": (
        "AFTER INSERT OR DELETE OR UPDATE OF status, bite_report_id ON quarantine FOR EACH ROW",
        "fieldops_bite_to_send_specimen",
    ),
}


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        "bite_to_send",
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("bite_report_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["bite_report_id"],
            ["bite_report.id"],
            name="fk_bite_to_send_bite_report_id_bite_report",
        ),
        sa.PrimaryKeyConstraint("kind", "bite_report_id", name="pk_bite_to_send"),
        sqlite_with_rowid=False,
    )
    # What is still to send now; the triggers keep it from here on.
    for statement in FILL:
        op.execute(statement)
    if dialect == "sqlite":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
    else:
        for name, body in PG_FUNCTIONS.items():
            op.execute(f"CREATE FUNCTION {name}() RETURNS trigger AS $$ {body} $$ LANGUAGE plpgsql")
        for name, (when, function) in PG_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {when} EXECUTE FUNCTION {function}()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
    else:
        for name, (when, _function) in PG_TRIGGERS.items():
            table = when.split(" ON ", 1)[1].split(" ", 1)[0]
            op.execute(f"DROP TRIGGER {name} ON {table}")
        for name in PG_FUNCTIONS:
            op.execute(f"DROP FUNCTION {name}()")
    op.drop_table("bite_to_send")
