"""list indexes: the calls and licences lists at a city's scale.

At 500,000 calls and 300,000 licences (issue 14) no index walked the lists'
orders, so every answer sorted all its matches (130-650 ms) and a last page
stepped through the whole sort (0.7-1.8 s):

- Calls: "open first" is the expression ``CASE WHEN status = 'closed' THEN 1
  ELSE 0 END`` the list orders by before priority and age; an index on it (and
  one per kind, kind first) walks the list's order. The list's query spells
  the expression exactly as here, which is what lets either database use it.
- Licences: an index for each sort key with the id after it (the order's tie
  break), one for this year's current licences in issue order (the default
  view), and copies on the licence of its dog's name and its owner's sort
  name, kept by triggers in the same transaction as the change they copy
  (as the impoundment's are, migration 0004), so that sorting by dog or owner
  walks an index instead of a join.
- Licences, "late" and "expired": they ask of each licence of earlier years
  whether its dog has a current licence for the next year, or for any later
  one, a lookup for each of 160,000 licences (0.3-0.5 s). ``renewed`` and
  ``renewed_later`` keep those answers on the licence, rewritten by triggers
  for every licence of a dog whenever one of its licences is written, changes
  status or year, or moves to another dog; an index on each (status, the flag,
  licence_year, issued_at, id) gives the lists the dogs that were not renewed,
  in issue order (the late list's with the dog's id, for its archived check).

Plain operations, not batch ones: a batch on SQLite recreates the table and
drops its triggers. Where the file keeps planner statistics (``ANALYZE`` was
run on it) the new indexes get theirs, so the planner weighs them with the
others; a file without statistics is left without.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-01 21:15:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None

# Written out, not imported, so that this migration stays as it ran.
# Laid out as PostgreSQL prints it back (the schema's comparison with the models).
OPEN_FIRST = "(\nCASE\n    WHEN status = 'closed' THEN 1\n    ELSE 0\nEND)"

LICENCE_ORDER_KEYS = (
    "licence_year",
    "issued_at",
    "animal_name",
    "owner_sort_name",
    "status",
    "total",
)

_KEYS_FROM = (
    "animal_name = coalesce((SELECT name FROM animal WHERE animal.id = {row}.animal_id), ''), "
    "owner_sort_name = coalesce((SELECT sort_name FROM person "
    "WHERE person.id = {row}.owner_id), '')"
)

SQLITE_TRIGGERS = {
    "dog_licence_list_keys_ai": "AFTER INSERT ON dog_licence BEGIN UPDATE dog_licence SET "
    + _KEYS_FROM.format(row="new")
    + " WHERE id = new.id; END",
    "dog_licence_list_keys_au": "AFTER UPDATE OF animal_id, owner_id ON dog_licence BEGIN "
    "UPDATE dog_licence SET " + _KEYS_FROM.format(row="new") + " WHERE id = new.id; END",
    "animal_licence_list_au": "AFTER UPDATE OF name ON animal BEGIN UPDATE dog_licence SET "
    "animal_name = new.name WHERE animal_id = new.id; END",
    "person_licence_list_au": "AFTER UPDATE OF sort_name ON person BEGIN UPDATE dog_licence SET "
    "owner_sort_name = new.sort_name WHERE owner_id = new.id; END",
}

# Whether the dog has a current licence for the year after this one's.
# Whether the dog has a current licence for the year after this one's ("late"), and for
# any later year ("expired": a dog may skip a year).
_RENEWED = (
    "renewed = EXISTS (SELECT 1 FROM dog_licence n WHERE n.animal_id = dog_licence.animal_id "
    "AND n.licence_year = dog_licence.licence_year + 1 AND n.status = 'current'), "
    "renewed_later = EXISTS (SELECT 1 FROM dog_licence n "
    "WHERE n.animal_id = dog_licence.animal_id "
    "AND n.licence_year > dog_licence.licence_year AND n.status = 'current')"
)
SQLITE_TRIGGERS |= {
    "dog_licence_renewed_ai": "AFTER INSERT ON dog_licence BEGIN UPDATE dog_licence SET "
    + _RENEWED
    + " WHERE animal_id = new.animal_id; END",
    "dog_licence_renewed_au": "AFTER UPDATE OF status, licence_year, animal_id ON dog_licence "
    "BEGIN UPDATE dog_licence SET "
    + _RENEWED
    + " WHERE animal_id IN (new.animal_id, old.animal_id); END",
    "dog_licence_renewed_ad": "AFTER DELETE ON dog_licence BEGIN UPDATE dog_licence SET "
    + _RENEWED
    + " WHERE animal_id = old.animal_id; END",
}

PG_FUNCTIONS = {
    "fieldops_licence_list_keys": "BEGIN NEW.animal_name := coalesce((SELECT name FROM animal "
    "WHERE id = NEW.animal_id), ''); NEW.owner_sort_name := coalesce((SELECT sort_name "
    "FROM person WHERE id = NEW.owner_id), ''); RETURN NEW; END",
    "fieldops_animal_licence_list": "BEGIN UPDATE dog_licence SET animal_name = NEW.name "
    "WHERE animal_id = NEW.id; RETURN NULL; END",
    "fieldops_person_licence_list": "BEGIN UPDATE dog_licence SET owner_sort_name = NEW.sort_name "
    "WHERE owner_id = NEW.id; RETURN NULL; END",
    # OLD is NULL on an insert, NEW on a delete: "IN" then names the one dog there is.
    "fieldops_licence_renewed": "BEGIN UPDATE dog_licence SET "
    + _RENEWED
    + " WHERE animal_id IN (NEW.animal_id, OLD.animal_id); RETURN NULL; END",
}
PG_TRIGGERS = {
    "dog_licence_list_keys": (
        "BEFORE INSERT OR UPDATE OF animal_id, owner_id ON dog_licence",
        "fieldops_licence_list_keys",
    ),
    "animal_licence_list": ("AFTER UPDATE OF name ON animal", "fieldops_animal_licence_list"),
    "person_licence_list": ("AFTER UPDATE OF sort_name ON person", "fieldops_person_licence_list"),
    "dog_licence_renewed": (
        "AFTER INSERT OR DELETE OR UPDATE OF status, licence_year, animal_id ON dog_licence",
        "fieldops_licence_renewed",
    ),
}

NEW_INDEXES = (
    "ix_field_call_open_first",
    "ix_field_call_kind_open_first",
    "ix_dog_licence_current_issued",
    "ix_dog_licence_unrenewed",
    "ix_dog_licence_unrenewed_later",
    *(f"ix_dog_licence_order_{key}" for key in LICENCE_ORDER_KEYS),
)


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
    bind = op.get_bind()
    op.create_index(
        "ix_field_call_open_first",
        "field_call",
        [sa.text(OPEN_FIRST), "priority", "received_at", "id"],
    )
    op.create_index(
        "ix_field_call_kind_open_first",
        "field_call",
        ["kind", sa.text(OPEN_FIRST), "priority", "received_at", "id"],
    )
    op.add_column(
        "dog_licence",
        sa.Column("animal_name", sa.String(length=100), server_default="", nullable=False),
    )
    op.add_column(
        "dog_licence",
        sa.Column("owner_sort_name", sa.String(length=200), server_default="", nullable=False),
    )
    for flag in ("renewed", "renewed_later"):
        op.add_column(
            "dog_licence",
            sa.Column(flag, sa.Boolean(), server_default=sa.false(), nullable=False),
        )
    # Existing licences take their copies now; the triggers keep them from here on.
    op.execute(f"UPDATE dog_licence SET {_KEYS_FROM.format(row='dog_licence')}, {_RENEWED}")
    _create_triggers(bind.dialect.name)
    op.create_index(
        "ix_dog_licence_current_issued",
        "dog_licence",
        ["status", "licence_year", "issued_at", "id"],
    )
    op.create_index(
        "ix_dog_licence_unrenewed",
        "dog_licence",
        ["status", "renewed", "licence_year", "issued_at", "id", "animal_id"],
    )
    op.create_index(
        "ix_dog_licence_unrenewed_later",
        "dog_licence",
        ["status", "renewed_later", "licence_year", "issued_at", "id"],
    )
    for key in LICENCE_ORDER_KEYS:
        op.create_index(f"ix_dog_licence_order_{key}", "dog_licence", [key, "id"])
    if bind.dialect.name == "sqlite":
        has_stats = bind.exec_driver_sql(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'"
        ).scalar()
        if has_stats:
            for name in NEW_INDEXES:
                op.execute(f"ANALYZE {name}")


def downgrade() -> None:
    for key in reversed(LICENCE_ORDER_KEYS):
        op.drop_index(f"ix_dog_licence_order_{key}", table_name="dog_licence")
    op.drop_index("ix_dog_licence_unrenewed_later", table_name="dog_licence")
    op.drop_index("ix_dog_licence_unrenewed", table_name="dog_licence")
    op.drop_index("ix_dog_licence_current_issued", table_name="dog_licence")
    _drop_triggers(op.get_bind().dialect.name)
    # Plain drops (SQLite 3.35+), not a batch: a batch would drop every other trigger.
    op.drop_column("dog_licence", "renewed_later")
    op.drop_column("dog_licence", "renewed")
    op.drop_column("dog_licence", "owner_sort_name")
    op.drop_column("dog_licence", "animal_name")
    op.drop_index("ix_field_call_kind_open_first", table_name="field_call")
    op.drop_index("ix_field_call_open_first", table_name="field_call")
