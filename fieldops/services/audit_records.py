"""Does every record still say what its audit events say it was last set to?

A change made behind the app's back (``UPDATE staff_user SET role='admin'``,
a payment's amount edited with its trigger dropped) leaves the record
disagreeing with the last state its audit events describe. For each audited
table, :data:`AUDITED` says which events describe which columns; the events'
``after`` values (and ``before`` ones are ignored: they are history) are
replayed in chain order and compared with the row, column by column. A column
no event has described yet is not compared; a record with no describing event
at all is named (it was written without the services).

What is compared (say so when adding a table):

- staff_user: login name, name, role, active, computer login (events ``create``,
  ``update``).
- person: every field of the person form (``create``, ``update``).
- animal: every field of the animal form (``create``, ``update``).
- impoundment: the intake's details (``intake``, ``update``, ``correct_intake``).
- payment: method, receipt, payer, time paid, its impoundment, and every line's kind,
  description and amount (the ``payment`` event on the impoundment).
- disposition: kind, time, recipient, to the owner, transferred to, the destruction's
  basis and grounds, body kept until (the disposition events on the impoundment).
- bite_report: the reported facts (``bite_report``).
- quarantine: the bite it answers, when and where it was ordered (``quarantine_order``).
- vicious_case: animal, owner, status, deadlines (``declare``, ``refuse_declaration``,
  ``status``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import Connection, select

from fieldops.db.models import AuditEvent, Base, PaymentLine
from fieldops.services.context import jsonable

DISPOSITION_ACTIONS = frozenset(
    {"reclaimed", "adopted", "transferred", "euthanized", "died", "escaped"}
)

PERSON_COLUMNS = (
    "full_name",
    "address",
    "city",
    "state",
    "postal_code",
    "in_city",
    "phone",
    "email",
)
ANIMAL_COLUMNS = (
    "species",
    "name",
    "breed",
    "colour",
    "sex",
    "altered",
    "birth_date",
    "microchip",
    "licence_number",
    "licence_year",
    "owner_id",
)
IMPOUND_COLUMNS = (
    "animal_id",
    "impounded_at",
    "officer",
    "reason",
    "reason_detail",
    "bit_person",
    "owner_id",
    "kennel",
    "last_claim_day",
    "repeat_of_id",
    "found_place",
    "found_at",
    "altered",
    "condition",
    "injuries",
)


@dataclass(frozen=True)
class Audited:
    """How one table's rows are described by audit events.

    ``entity``/``actions``: the events that describe it. ``row_key``: for rows
    whose events are on a parent record (a payment on its impoundment), the
    ``after`` key naming the row; otherwise the event's record is the row.
    ``rename``: ``after`` keys that mean a differently named column.
    ``derive``: more state from the event itself (a disposition's kind is the action).
    """

    table: str
    label: str
    entity: str
    actions: frozenset[str]
    columns: tuple[str, ...]
    row_key: str | None = None
    rename: dict[str, str] = field(default_factory=dict)
    derive: Callable[[str, int, dict[str, Any]], dict[str, Any]] | None = None


def _disposition_state(action: str, entity_id: int, after: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {"impoundment_id": entity_id}
    if action in DISPOSITION_ACTIONS:
        state["kind"] = action
    return state


def _payment_state(action: str, entity_id: int, after: dict[str, Any]) -> dict[str, Any]:
    return {"impoundment_id": entity_id}


AUDITED: tuple[Audited, ...] = (
    Audited(
        "staff_user",
        "staff account",
        "staff_user",
        frozenset({"create", "update"}),
        ("username", "full_name", "role", "active", "os_user"),
    ),
    Audited("person", "person", "person", frozenset({"create", "update"}), PERSON_COLUMNS),
    Audited("animal", "animal", "animal", frozenset({"create", "update"}), ANIMAL_COLUMNS),
    Audited(
        "impoundment",
        "impoundment",
        "impoundment",
        frozenset({"intake", "update", "correct_intake"}),
        IMPOUND_COLUMNS,
    ),
    Audited(
        "payment",
        "payment",
        "impoundment",
        frozenset({"payment"}),
        ("impoundment_id", "method", "receipt_number", "payer_id", "paid_at"),
        row_key="payment",
        derive=_payment_state,
    ),
    Audited(
        "disposition",
        "disposition",
        "impoundment",
        DISPOSITION_ACTIONS | {"correct_disposition"},
        (
            "impoundment_id",
            "kind",
            "at",
            "recipient_id",
            "to_owner",
            "transfer_to",
            "hopeless_or_threat",
            "euthanasia_basis",
            "decided_by",
            "preserve_until",
        ),
        row_key="disposition",
        derive=_disposition_state,
    ),
    Audited(
        "bite_report",
        "bite report",
        "bite_report",
        frozenset({"bite_report"}),
        (
            "bitten_at",
            "place",
            "victim_name",
            "species",
            "animal_id",
            "owner_id",
            "impoundment_id",
            "reported_by",
            "reported_at",
            "rabies_certificate",
            "rabies_vaccinated_on",
            "rabies_expires_on",
            "rabies_proof",
            "officer",
            "referral",
        ),
    ),
    Audited(
        "quarantine",
        "quarantine",
        "quarantine",
        frozenset({"quarantine_order"}),
        ("bite_report_id", "ordered_at", "ordered_placement", "ordered_clinic_id"),
        rename={"placement": "ordered_placement", "clinic_id": "ordered_clinic_id"},
    ),
    Audited(
        "vicious_case",
        "vicious-animal case",
        "vicious_case",
        frozenset({"declare", "refuse_declaration", "status"}),
        ("animal_id", "owner_id", "status", "notice_deadline", "next_step_due"),
    ),
)


def _norm(value: Any) -> Any:
    """One form for a stored value and its audited copy: blank is blank, instants in UTC."""
    if value is None or value == "":
        return ""
    if isinstance(value, Decimal):
        return value.normalize()
    if isinstance(value, datetime | date):
        return jsonable(value)
    if isinstance(value, str) and value[:4].isdigit() and "T" in value:
        try:
            return jsonable(datetime.fromisoformat(value))
        except ValueError:
            return value
    return value


def _money(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value)).normalize()
    except (InvalidOperation, ValueError):
        return None


def _states(
    conn: Connection, spec: Audited, ids: tuple[int, int] | None = None
) -> dict[int, dict[str, Any]]:
    """Row id -> the state its events describe, replayed in chain order (ids: lo..hi)."""
    ev = AuditEvent.__table__
    states: dict[int, dict[str, Any]] = defaultdict(dict)
    q = select(ev.c.action, ev.c.entity_id, ev.c.after).where(
        ev.c.entity == spec.entity, ev.c.action.in_(sorted(spec.actions))
    )
    if ids is not None:
        q = q.where(ev.c.entity_id.between(*ids))
    for action, entity_id, after in conn.execute(q.order_by(ev.c.seq)):
        after = after or {}
        row_id = entity_id if spec.row_key is None else after.get(spec.row_key)
        if not isinstance(row_id, int):
            continue
        state = states[row_id]
        for k, v in after.items():
            state[spec.rename.get(k, k)] = v
        if spec.derive is not None:
            state.update(spec.derive(action, entity_id, after))
    return states


def _table_exists(conn: Connection, table: str) -> bool:
    return conn.dialect.has_table(conn, table)


def _mismatches(row: dict[str, Any], state: dict[str, Any], columns: Iterable[str]) -> list[str]:
    out = []
    for c in columns:
        if c in state and c in row and _norm(row[c]) != _norm(state[c]):
            out.append(c)
    return out


def _line_problems(conn: Connection, states: dict[int, dict[str, Any]]) -> list[str]:
    lines: dict[int, list[Any]] = defaultdict(list)
    t = PaymentLine.__table__
    for r in conn.execute(select(t).order_by(t.c.payment_id, t.c.id)):
        lines[r.payment_id].append(r)
    out = []
    for payment_id in sorted(set(lines) | set(states)):
        audited = states.get(payment_id, {}).get("lines")
        if audited is None:
            continue  # the payment itself is reported when it has no event
        actual = lines.get(payment_id, [])
        same = len(actual) == len(audited) and all(
            a.kind == b.get("kind")
            and _norm(a.description) == _norm(b.get("description"))
            and _money(a.amount) == _money(b.get("amount"))
            for a, b in zip(actual, audited, strict=False)
        )
        if not same:
            out.append(
                f"payment #{payment_id}: its lines (kinds, amounts) differ from its audit trail"
            )
    return out


#: Records named one by one per table; beyond this, a count (a bulk change names a few).
NAMED = 20
BATCH = 5000


def _table_problems(conn: Connection, spec: Audited) -> tuple[list[str], int]:
    """(problems named, how many more there were) for one table, a batch of rows at a time."""
    table = Base.metadata.tables[spec.table]
    present = [c for c in spec.columns if c in table.c]
    named: list[str] = []
    more = 0
    whole = _states(conn, spec) if spec.row_key is not None else None
    last = 0
    while True:
        rows = (
            conn.execute(select(table).where(table.c.id > last).order_by(table.c.id).limit(BATCH))
            .mappings()
            .all()
        )
        if not rows:
            break
        last = rows[-1]["id"]
        states = whole if whole is not None else _states(conn, spec, (rows[0]["id"], last))
        for row in rows:
            state = states.get(row["id"])
            if state is None:
                problem = (
                    f"{spec.label} #{row['id']} has no audit event describing it "
                    "(written without the app?)"
                )
            elif differ := _mismatches(dict(row), state, present):
                problem = (
                    f"{spec.label} #{row['id']} differs from its audit trail in: "
                    f"{', '.join(differ)} (changed without the app?)"
                )
            else:
                continue
            if len(named) < NAMED:
                named.append(problem)
            else:
                more += 1
    if whole is not None and spec.table == "payment":
        named += _line_problems(conn, whole)
    return named, more


def record_problems(conn: Connection) -> list[str]:
    """Every audited record that differs from its audit trail, by table, record and field."""
    out: list[str] = []
    for spec in AUDITED:
        if not _table_exists(conn, spec.table):
            continue
        named, more = _table_problems(conn, spec)
        out += named
        if more:
            out.append(f"... and {more} more {spec.label} records like these")
    return out
