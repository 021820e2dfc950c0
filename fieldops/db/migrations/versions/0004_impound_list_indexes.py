"""impound list indexes

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 07:40:00

The impounds list sorted by animal or owner, or filtered by disposition,
went through a join to the animal and person tables and a latest-disposition
subquery per row: no index could deliver its order, and "All statuses" sorted
by animal cost the square of the rows (41 s at 30,000 impoundments). Each
impoundment now carries copies of what the list filters and sorts on (the
animal's name and species, the owner's sort name, the current disposition),
kept by triggers in the same transaction as the change they copy, whatever
code path makes it, and every (status, sort) pair has an index that delivers
its order.

Plain operations, not batch ones: a batch on SQLite recreates the table and
drops its triggers.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import fieldops.db.types

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# Sort keys of the list that live on the impoundment row (copies included).
KEYS = (
    "impounded_at",
    "last_claim_day",
    "kennel",
    "animal_name",
    "animal_species",
    "owner_sort_name",
)
# Keys that had no index of their own before (impounded_at and last_claim_day had one).
NEW_ORDER_KEYS = ("kennel", "animal_name", "animal_species", "owner_sort_name")

# The copies an impoundment takes from its animal and owner when either is set.
_KEYS_FROM = (
    "animal_name = (SELECT name FROM animal WHERE animal.id = {row}.animal_id), "
    "animal_species = (SELECT species FROM animal WHERE animal.id = {row}.animal_id), "
    "owner_sort_name = coalesce((SELECT sort_name FROM person "
    "WHERE person.id = {row}.owner_id), '')"
)
# The current disposition is the newest row: a correction is always written after
# the disposition it corrects, and a second disposition is refused.
_DISPOSITION_FROM = (
    "disposition_kind = (SELECT kind FROM disposition d WHERE d.impoundment_id = {row}.id "
    "ORDER BY d.id DESC LIMIT 1), "
    "disposition_at = (SELECT at FROM disposition d WHERE d.impoundment_id = {row}.id "
    "ORDER BY d.id DESC LIMIT 1)"
)

SQLITE_TRIGGERS = {
    "impoundment_list_keys_ai": "AFTER INSERT ON impoundment BEGIN UPDATE impoundment SET "
    + _KEYS_FROM.format(row="new")
    + " WHERE id = new.id; END",
    "impoundment_list_keys_au": "AFTER UPDATE OF animal_id, owner_id ON impoundment BEGIN UPDATE impoundment SET "
    + _KEYS_FROM.format(row="new")
    + " WHERE id = new.id; END",
    "animal_impound_list_au": "AFTER UPDATE OF name, species ON animal BEGIN UPDATE impoundment SET "
    "animal_name = new.name, animal_species = new.species WHERE animal_id = new.id; END",
    "person_impound_list_au": "AFTER UPDATE OF sort_name ON person BEGIN UPDATE impoundment SET "
    "owner_sort_name = new.sort_name WHERE owner_id = new.id; END",
    "disposition_impound_list_ai": "AFTER INSERT ON disposition BEGIN UPDATE impoundment SET "
    "disposition_kind = new.kind, disposition_at = new.at "
    "WHERE id = new.impoundment_id; END",
}

PG_FUNCTIONS = {
    "fieldops_impound_list_keys": "BEGIN NEW.animal_name := (SELECT name FROM animal WHERE id = NEW.animal_id); "
    "NEW.animal_species := (SELECT species FROM animal WHERE id = NEW.animal_id); "
    "NEW.owner_sort_name := coalesce((SELECT sort_name FROM person "
    "WHERE id = NEW.owner_id), ''); RETURN NEW; END",
    "fieldops_animal_impound_list": "BEGIN UPDATE impoundment SET animal_name = NEW.name, animal_species = NEW.species "
    "WHERE animal_id = NEW.id; RETURN NULL; END",
    "fieldops_person_impound_list": "BEGIN UPDATE impoundment SET owner_sort_name = NEW.sort_name "
    "WHERE owner_id = NEW.id; RETURN NULL; END",
    "fieldops_disposition_impound_list": "BEGIN UPDATE impoundment SET disposition_kind = NEW.kind, disposition_at = NEW.at "
    "WHERE id = NEW.impoundment_id; RETURN NULL; END",
}
PG_TRIGGERS = {
    "impoundment_list_keys": (
        "BEFORE INSERT OR UPDATE OF animal_id, owner_id ON impoundment",
        "fieldops_impound_list_keys",
    ),
    "animal_impound_list": (
        "AFTER UPDATE OF name, species ON animal",
        "fieldops_animal_impound_list",
    ),
    "person_impound_list": ("AFTER UPDATE OF sort_name ON person", "fieldops_person_impound_list"),
    "disposition_impound_list": (
        "AFTER INSERT ON disposition",
        "fieldops_disposition_impound_list",
    ),
}


def _create_triggers(dialect: str) -> None:
    if dialect == "sqlite":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
    elif dialect == "postgresql":
        for name, body in PG_FUNCTIONS.items():
            op.execute(f"CREATE FUNCTION {name}() RETURNS trigger AS $$ {body} $$ LANGUAGE plpgsql")
        for name, (when, function) in PG_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {when} FOR EACH ROW EXECUTE FUNCTION {function}()")


def _drop_triggers(dialect: str) -> None:
    if dialect == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
    elif dialect == "postgresql":
        for name, (when, _function) in PG_TRIGGERS.items():
            table = when.rsplit(" ON ", 1)[1]
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        for name in PG_FUNCTIONS:
            op.execute(f"DROP FUNCTION IF EXISTS {name}()")


def upgrade() -> None:
    op.add_column(
        "impoundment",
        sa.Column("animal_name", sa.String(length=100), server_default="", nullable=False),
    )
    op.add_column(
        "impoundment",
        sa.Column("animal_species", sa.String(length=10), server_default="", nullable=False),
    )
    op.add_column(
        "impoundment",
        sa.Column("owner_sort_name", sa.String(length=200), server_default="", nullable=False),
    )
    op.add_column("impoundment", sa.Column("disposition_kind", sa.String(length=20), nullable=True))
    op.add_column(
        "impoundment",
        sa.Column("disposition_at", fieldops.db.types.UTCDateTime(timezone=True), nullable=True),
    )
    # Existing rows take their copies now; the triggers keep them from here on.
    op.execute(f"UPDATE impoundment SET {_KEYS_FROM.format(row='impoundment')}")
    op.execute(f"UPDATE impoundment SET {_DISPOSITION_FROM.format(row='impoundment')}")
    _create_triggers(op.get_bind().dialect.name)
    op.create_index("ix_impoundment_owner_id", "impoundment", ["owner_id"])
    for key in KEYS:
        op.create_index(f"ix_impoundment_status_{key}", "impoundment", ["disposed", key, "id"])
    for key in NEW_ORDER_KEYS:
        op.create_index(f"ix_impoundment_order_{key}", "impoundment", [key, "id"])
    op.create_index("ix_impoundment_disposition_kind", "impoundment", ["disposition_kind"])


def downgrade() -> None:
    op.drop_index("ix_impoundment_disposition_kind", table_name="impoundment")
    for key in reversed(NEW_ORDER_KEYS):
        op.drop_index(f"ix_impoundment_order_{key}", table_name="impoundment")
    for key in reversed(KEYS):
        op.drop_index(f"ix_impoundment_status_{key}", table_name="impoundment")
    op.drop_index("ix_impoundment_owner_id", table_name="impoundment")
    _drop_triggers(op.get_bind().dialect.name)
    # Plain drops (SQLite 3.35+), not a batch: a batch would drop every other trigger.
    for column in (
        "disposition_at",
        "disposition_kind",
        "owner_sort_name",
        "animal_species",
        "animal_name",
    ):
        op.drop_column("impoundment", column)
