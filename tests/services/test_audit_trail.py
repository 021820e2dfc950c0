"""The audit trail is a hash chain that `fieldops check` verifies, with the records it describes.

Each tampering a court might ask about (a changed byte, a removed event, two
events swapped, the end cut off, a record changed behind the app's back) is
made with the append-only triggers dropped, as someone with the database's
password could, and must be found and named.
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal

import pytest
from accounts_support import enrol
from sqlalchemy import select, text
from support import local

from fieldops.check import integrity_problems
from fieldops.db.engine import Database
from fieldops.db.models import AuditChainHead, AuditEvent
from fieldops.db.models.audit import GENESIS, body_hash
from fieldops.services.audit import audit_head
from fieldops.services.audit_verify import chain_problems
from fieldops.services.context import Actor, audit, audit_read
from fieldops.services.dispositions import transfer
from fieldops.services.payments import LineInput, PaymentInput, record_payment
from fieldops.services.staff import set_staff

ADMIN = Actor("ada", "admin", "Ada Admin")


@contextmanager
def without_triggers(db: Database, table: str) -> Iterator[None]:
    """Drop a table's append-only triggers for the block (then put them back as 0002 made them)."""
    with db.engine.begin() as conn:
        if db.dialect == "sqlite":
            for event in ("update", "delete"):
                conn.exec_driver_sql(f"DROP TRIGGER {table}_no_{event}")
        else:
            conn.exec_driver_sql(f"DROP TRIGGER {table}_immutable ON {table}")
    try:
        yield
    finally:
        with db.engine.begin() as conn:
            if db.dialect == "sqlite":
                for event in ("UPDATE", "DELETE"):
                    conn.exec_driver_sql(
                        f"CREATE TRIGGER {table}_no_{event.lower()} BEFORE {event} ON {table} "
                        f"BEGIN SELECT RAISE(ABORT, '{table} rows are never changed or deleted'); "
                        "END"
                    )
            else:
                conn.exec_driver_sql(
                    f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION fieldops_immutable()"
                )


def sql(db: Database, statement: str, **params: object) -> None:
    with db.engine.begin() as conn:
        conn.execute(text(statement), params)


def events(db: Database) -> list[AuditEvent]:
    with db.read() as s:
        return list(s.scalars(select(AuditEvent).order_by(AuditEvent.seq)))


@pytest.fixture
def workflow(db, operator, owner, rex, impound, profile):
    """Staff, a person, an animal, an intake, a payment and a transfer: a real trail."""
    enrol(db, ADMIN)  # roles are the database's: the administrator needs an account
    set_staff(db, ADMIN, "ada", "admin", full_name="Ada Admin")
    set_staff(db, ADMIN, "opal", "operator", full_name="Opal Operator")
    imp = impound(rex.id, local(2026, 11, 2))
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput((LineInput("impound", Decimal("25.00")),), "cash", "R-1", payer_id=owner.id),
        profile,
    )
    transfer(db, operator, imp.id, "Dane County Humane Society", profile, at=local(2026, 11, 12))
    return imp


def test_every_event_links_to_the_one_before_and_check_says_ok(db, workflow):
    trail = events(db)
    assert len(trail) >= 8
    assert [e.seq for e in trail] == list(range(1, len(trail) + 1))
    assert trail[0].prev_hash == GENESIS
    for before, after in itertools.pairwise(trail):
        assert after.prev_hash == before.hash
    for e in trail:
        assert body_hash(e.body) == e.hash
        assert e.body == e.body.strip() and ", " not in e.body and '": ' not in e.body
    with db.read() as s:
        head = s.get(AuditChainHead, 1)
    assert (head.seq, head.hash) == (trail[-1].seq, trail[-1].hash)
    assert integrity_problems(db) == []
    assert audit_head(db) == f"audit #{trail[-1].seq} {trail[-1].hash[:12]}"


def test_a_changed_byte_is_found_and_the_event_named(db, workflow):
    victim = events(db)[3]
    with without_triggers(db, "audit_event"):
        sql(
            db,
            'UPDATE audit_event SET body = replace(body, \'"actor":"\', \'"actor":"x\') '
            "WHERE id = :i",
            i=victim.id,
        )
    problems = chain_problems_of(db)
    assert len(problems) == 1 and f"#{victim.id} " in problems[0] and "changed" in problems[0]


def test_a_changed_column_beside_an_intact_body_is_found(db, workflow):
    victim = events(db)[2]
    with without_triggers(db, "audit_event"):
        sql(db, "UPDATE audit_event SET actor = 'mallory' WHERE id = :i", i=victim.id)
    problems = chain_problems_of(db)
    assert len(problems) == 1 and f"#{victim.id} " in problems[0] and "actor" in problems[0]


def test_a_deleted_event_is_found(db, workflow):
    trail = events(db)
    with without_triggers(db, "audit_event"):
        sql(db, "DELETE FROM audit_event WHERE id = :i", i=trail[4].id)
    problems = chain_problems_of(db)
    assert len(problems) == 1 and f"#{trail[5].id} " in problems[0]
    assert "missing" in problems[0]


def test_two_swapped_events_are_found(db, workflow):
    a, b = events(db)[2:4]
    with without_triggers(db, "audit_event"):
        # Swap their places in the trail (seq is unique: go through a free number).
        sql(db, "UPDATE audit_event SET seq = -1 WHERE id = :i", i=a.id)
        sql(db, "UPDATE audit_event SET seq = :s WHERE id = :i", s=a.seq, i=b.id)
        sql(db, "UPDATE audit_event SET seq = :s WHERE id = :i", s=b.seq, i=a.id)
    problems = chain_problems_of(db)
    assert len(problems) == 1 and f"#{b.id} " in problems[0]


def test_a_cut_off_tail_is_found(db, workflow):
    trail = events(db)
    with without_triggers(db, "audit_event"):
        sql(db, "DELETE FROM audit_event WHERE seq > :s", s=trail[-3].seq)
    problems = chain_problems_of(db)
    assert len(problems) == 1 and f"#{trail[-3].id} " in problems[0]
    assert f"number {trail[-1].seq}" in problems[0]


@pytest.mark.parametrize(
    "table", ["payment_line", "quarantine_correction", "vicious_notice", "audit_event"]
)
def test_missing_append_only_triggers_are_named(db, workflow, table):
    # Each module names its own append-only tables through the seam; check covers them all.
    with without_triggers(db, table):
        problems = integrity_problems(db)
    assert any(table in p for p in problems)
    assert integrity_problems(db) == []


def test_a_missing_trigger_is_found_beside_another_schema_s_copy(db, workflow):
    """On PostgreSQL the check reads its own schema's triggers: another schema of the same
    server database holding the same table with its trigger (a copy made there) hides
    nothing. A run of the suite that was killed left such a schema behind once."""
    if db.dialect != "postgresql":
        pytest.skip("schemas are PostgreSQL's")
    other = f"other_copy_{uuid.uuid4().hex[:8]}"
    with db.engine.begin() as conn:
        conn.exec_driver_sql(f"CREATE SCHEMA {other}")
        conn.exec_driver_sql(f"CREATE TABLE {other}.payment_line (id integer)")
        conn.exec_driver_sql(
            f"CREATE TRIGGER payment_line_immutable BEFORE UPDATE OR DELETE ON "
            f"{other}.payment_line FOR EACH ROW EXECUTE FUNCTION fieldops_immutable()"
        )
    try:
        with without_triggers(db, "payment_line"):
            problems = integrity_problems(db)
        assert any("payment_line" in p for p in problems)
    finally:
        with db.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP SCHEMA {other} CASCADE")


def chain_problems_of(db: Database) -> list[str]:
    with db.engine.connect() as conn:
        found = chain_problems(conn)
    assert found == [p for p in integrity_problems(db) if p.startswith("the audit trail")]
    return found


def test_a_role_given_behind_the_apps_back_is_named(db, workflow):
    sql(db, "UPDATE staff_user SET role = 'admin' WHERE username = 'opal'")
    problems = integrity_problems(db)
    assert len(problems) == 1
    assert "staff account" in problems[0] and "role" in problems[0]


def test_a_login_remapped_behind_the_apps_back_is_named(db, workflow, admin):
    # The command line acts as the account a computer login is mapped to.
    set_staff(db, admin, "opal", "operator", os_user="opal-login")
    assert integrity_problems(db) == []
    sql(db, "UPDATE staff_user SET os_user = 'mallory' WHERE username = 'opal'")
    problems = integrity_problems(db)
    assert len(problems) == 1
    assert "staff account" in problems[0] and "os_user" in problems[0]


def test_a_changed_payment_amount_is_named(db, workflow):
    with without_triggers(db, "payment_line"):
        sql(db, "UPDATE payment_line SET amount = 100")
        problems = integrity_problems(db)
    assert any("payment #" in p and "amount" in p for p in problems)


def test_changed_impoundment_disposition_and_animal_are_named(db, workflow, rex):
    sql(db, "UPDATE impoundment SET kennel = 'B9', officer = 'Nobody'")
    sql(db, "UPDATE animal SET name = 'Max' WHERE id = :i", i=rex.id)
    with without_triggers(db, "disposition"):
        sql(db, "UPDATE disposition SET transfer_to = 'My cousin'")
        problems = integrity_problems(db)
    text_ = "\n".join(problems)
    assert f"impoundment #{workflow.id} differs from its audit trail in: officer, kennel" in text_
    assert f"animal #{rex.id} differs from its audit trail in: name" in text_
    assert "disposition #" in text_ and "transfer_to" in text_


def test_a_record_written_without_the_app_is_named(db, workflow):
    sql(
        db,
        "INSERT INTO staff_user (username, full_name, role, active, created_at, updated_at, "
        "version) VALUES ('mallory', 'M', 'admin', true, '2026-01-01', '2026-01-01', 1)",
    )
    problems = integrity_problems(db)
    assert any("staff account" in p and "no audit event" in p for p in problems)


def test_reading_private_parts_is_audited(db, workflow):
    with db.write() as s:
        audit_read(s, Actor("opal"), "victim_contact", "bite_report", 7)
    last = events(db)[-1]
    assert (last.actor, last.action, last.entity, last.entity_id) == (
        "opal",
        "read:victim_contact",
        "bite_report",
        7,
    )
    assert integrity_problems(db) == []
    with pytest.raises(RuntimeError, match="write unit"), db.read() as s:
        audit_read(s, Actor("opal"), "victim_contact", "bite_report", 7)
    with pytest.raises(ValueError), db.write() as s:
        audit_read(s, Actor("opal"), "", "bite_report", 7)


def test_two_workstations_writing_at_once_keep_one_linear_chain(db):
    # PostgreSQL: the chain head's row lock; SQLite: every write unit begins IMMEDIATE.
    engines = [Database(db.url), Database(db.url)]
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            barrier.wait()
            for i in range(40):
                with engines[n].write() as s:
                    audit(s, Actor(f"ws{n}"), "x", "e", i)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for e in engines:
        e.dispose()
    assert errors == []
    trail = events(db)
    assert [e.seq for e in trail] == list(range(1, 81))
    assert {e.actor for e in trail} == {"ws0", "ws1"}
    assert [e.at for e in trail] == sorted(e.at for e in trail)  # the server's one clock
    with db.engine.connect() as conn:
        assert chain_problems(conn) == []
