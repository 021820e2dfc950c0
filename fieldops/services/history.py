"""A record's history as people read it: one plain sentence per audited event.

The audit trail stores codes and data (``recipient_id``, ISO UTC instants,
payment lines); a clerk needs "Released to Hana Novak, the owner, on Tue 1 Dec
2026 3:45 PM CST". Each event kind has an entry in :data:`EVENT_KINDS` (a
short label and a sentence builder) keyed by the audit action, optionally
narrowed by entity (``"person:create"`` before ``"create"``). A kind without an
entry, or data keys a builder does not know, still read as words: the action
in words and "field: value" pairs, ids as names, instants in local time. A
new event kind adds one entry here; the screens only display the result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Animal, AuditEvent, Payment, Person, StaffUser
from fieldops.rules import format_day, format_local
from fieldops.rules.release import EUTHANASIA_BASES
from fieldops.services.history_words import (
    CODE_WORDS,
    MONEY_WORDS,
    PERSON_KEYS,
    RECORD_KEYS,
    _day,
    _decimal,
    _instant,
    field_label,
)
from fieldops.services.history_words import money as money  # modules' sentences use it
from fieldops.services.impound_views import DISPOSITIONS, PAYMENT_KINDS, REASONS


@dataclass(frozen=True)
class HistoryLine:
    """One event of a record's history, ready to show."""

    at: datetime  # aware (UTC); the screen writes it in local time
    who: str  # the staff member's name (their login when no name is on file)
    action: str  # the audit code, for tests and filters
    what: str  # a short label: "Payment recorded"
    sentence: str  # the event in words, times in local time
    reason: str = ""  # the reason or notes given with it

    @property
    def summary(self) -> str:
        return self.sentence


@dataclass(frozen=True)
class Event:
    """What a sentence builder reads: the stored event."""

    action: str
    entity: str
    entity_id: int
    before: dict[str, Any]
    after: dict[str, Any]
    reason: str


class Names:
    """Words for what an event stores as codes: people, animals, instants, money."""

    def __init__(self, session: Session, zone: tzinfo) -> None:
        self._s = session
        self.zone = zone
        self._people: dict[int, str] = {}
        self._animals: dict[int, str] = {}

    def person(self, person_id: Any) -> str:
        if not isinstance(person_id, int):
            return "nobody"
        if person_id not in self._people:
            p = self._s.get(Person, person_id)
            self._people[person_id] = p.full_name if p else f"person #{person_id}"
        return self._people[person_id]

    def animal(self, animal_id: Any) -> str:
        if not isinstance(animal_id, int):
            return "no animal"
        if animal_id not in self._animals:
            a = self._s.get(Animal, animal_id)
            self._animals[animal_id] = (
                ", ".join(x for x in (a.name or "(no name)", a.breed) if x)
                if a
                else f"animal #{animal_id}"
            )
        return self._animals[animal_id]

    def payer(self, payment_id: Any) -> str:
        p = self._s.get(Payment, payment_id) if isinstance(payment_id, int) else None
        return self.person(p.payer_id) if p is not None and p.payer_id is not None else ""

    def when(self, value: Any) -> str:
        moment = _instant(value)
        return format_local(moment, self.zone) if moment is not None else str(value or "")

    def day(self, value: Any) -> str:
        d = _day(value)
        return format_day(d) if d is not None else str(value or "")

    def value(self, key: str, value: Any) -> str:
        """Any stored value in words, guided by its key."""
        if value is None or value == "":
            return "none"
        if isinstance(value, bool):
            return "yes" if value else "no"
        if key in PERSON_KEYS and isinstance(value, int):
            return self.person(value)
        if key == "animal_id" and isinstance(value, int):
            return self.animal(value)
        if isinstance(value, int) and (key.endswith("_id") or key in RECORD_KEYS):
            return f"#{value}"
        if isinstance(value, str):
            if _instant(value) is not None:
                return self.when(value)
            if _day(value) is not None:
                return self.day(value)
            if any(w in key for w in MONEY_WORDS) and _decimal(value) is not None:
                return money(value)
            return CODE_WORDS.get(key, {}).get(value, value)
        if isinstance(value, list):
            return "; ".join(self.value(key, x) for x in value) or "none"
        if isinstance(value, dict):
            return self.pairs(value)
        return str(value)

    def pairs(self, data: dict[str, Any]) -> str:
        """ "field: value" for every key, in words."""
        return ", ".join(f"{field_label(k)}: {self.value(k, v)}" for k, v in data.items())


SentenceBuilder = Callable[[Event, Names], str]


@dataclass(frozen=True)
class EventKind:
    label: str
    sentence: SentenceBuilder


def _clause(text: str) -> str:
    """A sentence ends with one full stop."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _rest(e: Event, names: Names, known: set[str]) -> str:
    """Data a builder did not put in its sentence, as "field: value" pairs."""
    extra = {k: v for k, v in e.after.items() if k not in known and v not in (None, "", [], {})}
    return f" ({names.pairs(extra)})" if extra else ""


# ------------------------------------------------------------------- the sentences


def _changes(e: Event, names: Names) -> str:
    parts = []
    for key, new in e.after.items():
        old = e.before.get(key)
        parts.append(
            f"{field_label(key)} from {_quoted(names, key, old)} to {_quoted(names, key, new)}"
        )
    return _clause("Changed " + "; ".join(parts)) if parts else "Changed the record."


def _quoted(names: Names, key: str, value: Any) -> str:
    if value is None or value == "":
        return "(blank)"
    text = names.value(key, value)
    return (
        f"“{text}”"
        if isinstance(value, str) and _instant(value) is None and _day(value) is None
        else text
    )


def _created(e: Event, names: Names) -> str:
    shown = {k: v for k, v in e.after.items() if v not in (None, "", False, [], {})}
    return _clause("Created the record" + (f": {names.pairs(shown)}" if shown else ""))


def _person_created(e: Event, names: Names) -> str:
    from fieldops.services.people import format_address

    a = e.after
    where = format_address(
        a.get("address", ""), a.get("city", ""), a.get("state", ""), a.get("postal_code", "")
    )
    text = f"Created the record of {a.get('full_name') or 'a person'}"
    text += f", {where}" if where else ", no address recorded"
    extra = [x for x in (a.get("phone"), a.get("email")) if x]
    if extra:
        text += f"; {', '.join(extra)}"
    if a.get("is_veterinarian"):
        text += "; a veterinarian"
    return _clause(text)


def _animal_created(e: Event, names: Names) -> str:
    a = e.after
    what = ", ".join(
        x
        for x in (
            a.get("name") or "(no name)",
            a.get("species_detail") or a.get("species"),
            a.get("breed"),
            a.get("colour"),
        )
        if x
    )
    text = f"Registered {what}"
    if isinstance(a.get("owner_id"), int):
        text += f", owned by {names.person(a['owner_id'])}"
    if a.get("microchip"):
        text += f"; microchip {a['microchip']}"
    if a.get("licence_number"):
        text += f"; licence {a['licence_number']} ({a.get('licence_year') or 'no year'})"
    return _clause(text)


def _archived(e: Event, names: Names) -> str:
    return "Archived the record."


def _vaccination(e: Event, names: Names) -> str:
    a = e.after
    text = (
        f"Added a rabies vaccination given {names.day(a.get('vaccinated_on'))}, "
        f"expiring {names.day(a.get('expires_on'))}"
    )
    if a.get("certificate_number"):
        text += f", certificate {a['certificate_number']}"
    if a.get("veterinarian"):
        text += f", by {a['veterinarian']}"
    return _clause(text)


def _impounded(e: Event, names: Names) -> str:
    a = e.after
    return _clause(
        f"Impounded {names.when(a.get('impounded_at'))} (impoundment #{a.get('impoundment')})"
    )


def _intake(e: Event, names: Names) -> str:
    a = e.after
    text = (
        f"Took in {names.animal(a.get('animal_id'))}, impounded {names.when(a.get('impounded_at'))}"
    )
    if a.get("officer"):
        text += f" by {a['officer']}"
    if a.get("reason"):
        text += f"; reason: {REASONS.get(a['reason'], a['reason']).lower()}"
    if a.get("bit_person"):
        text += "; the animal bit a person"
    text += (
        f"; owner: {names.person(a['owner_id'])}"
        if isinstance(a.get("owner_id"), int)
        else "; owner unknown"
    )
    if a.get("kennel"):
        text += f"; kennel {a['kennel']}"
    if a.get("last_claim_day"):
        text += f"; the owner may claim until {names.day(a['last_claim_day'])}"
    if isinstance(a.get("repeat_of_id"), int):
        text += f"; a repeat of impoundment #{a['repeat_of_id']}"
    known = {
        "animal_id",
        "impounded_at",
        "officer",
        "reason",
        "bit_person",
        "owner_id",
        "kennel",
        "last_claim_day",
        "repeat_of_id",
    }
    return _clause(text + _rest(e, names, known))


def _payment(e: Event, names: Names) -> str:
    a = e.after
    lines = a.get("lines") or []
    total = sum((_decimal(x.get("amount")) or Decimal(0) for x in lines), Decimal(0))
    method = a.get("method", "")
    how = {
        "cash": "in cash",
        "check": "by check",
        "card": "by card",
        "other": "by other means",
    }.get(method, method)
    payer = names.payer(a.get("payment"))
    text = f"{payer + ' paid' if payer else 'Paid'} {money(total)} {how}".rstrip()
    if a.get("receipt_number"):
        text += f", receipt {a['receipt_number']}"
    parts = [
        f"{x.get('description') or PAYMENT_KINDS.get(x.get('kind'), x.get('kind'))} "
        f"{money(x.get('amount'))}"
        for x in lines
    ]
    if parts:
        text += f": {'; '.join(parts)}"
    return _clause(
        text
        + _rest(e, names, {"payment", "method", "receipt_number", "lines", "payer_id", "paid_at"})
    )


def _released(e: Event, names: Names) -> str:
    a = e.after
    who = names.person(a.get("recipient_id"))
    if e.action == "reclaimed":
        text = f"Released to {who}, the owner, {names.when(a.get('at'))}"
    else:
        text = f"Released for adoption to {who}, {names.when(a.get('at'))}"
    return _clause(
        text + _rest(e, names, {"disposition", "recipient_id", "at", "to_owner", "evidence"})
    )


def _override(e: Event, names: Names) -> str:
    code = e.after.get("requirement", "")
    return _clause(f"A supervisor overrode the release block “{field_label(str(code))}”")


def _simple_disposition(e: Event, names: Names) -> str:
    a = e.after
    when = names.when(a.get("at"))
    if e.action == "transferred":
        text = f"Transferred to {a.get('transfer_to') or 'a shelter or rescue'}, {when}"
    elif e.action == "euthanized":
        text = f"Humanely destroyed, {when}"
        basis = EUTHANASIA_BASES.get(str(a.get("euthanasia_basis") or ""))
        if basis:
            text += f": {basis[0].lower()}{basis[1:]}"
        elif a.get("hopeless_or_threat"):
            text += ", found hopelessly injured or an imminent threat"
        if a.get("decided_by"):
            text += f"; decided by {a['decided_by']}"
        if a.get("preserve_until"):
            text += f"; the body is kept until {names.day(a['preserve_until'])} (a bite case)"
    elif e.action == "died":
        text = f"Died in the pound's care, {when}"
    else:
        text = f"Escaped, {when}"
    return _clause(
        text
        + _rest(
            e,
            names,
            {
                "disposition",
                "at",
                "transfer_to",
                "hopeless_or_threat",
                "preserve_until",
                "euthanasia_basis",
                "decided_by",
            },
        )
    )


def _corrected(e: Event, names: Names) -> str:
    b, a = e.before, e.after

    def side(d: dict[str, Any]) -> str:
        kind = DISPOSITIONS.get(d.get("kind", ""), d.get("kind") or "unknown")
        return f"{kind.lower()} ({names.when(d.get('at'))})"

    return f"Corrected the disposition from {side(b)} to {side(a)}; the original stays on record."


def _intake_corrected(e: Event, names: Names) -> str:
    """A correction of a saved intake: each changed detail, old and new; the hold it moved."""
    text = _changes(e, names).removeprefix("Changed ")
    return (
        f"Corrected the intake: {text[0].lower()}{text[1:]}" if e.after else "Corrected the intake."
    )


def _fee_schedule(e: Event, names: Names) -> str:
    a = e.after
    code = str(a.get("species", ""))
    species = {"dog": "dogs", "cat": "cats", "other": "other animals"}.get(code, code)
    text = (
        f"Entered the fees for {species} under resolution {a.get('resolution')}, in force "
        f"from {names.day(a.get('effective_on'))}: impound {money(a.get('impound'))}, "
        f"boarding {money(a.get('boarding_per_day'))} a day, adoption "
        f"{money(a.get('adoption'))}"
    )
    return _clause(text)


def _staff(e: Event, names: Names) -> str:
    a = e.after
    who = f"{a.get('full_name') or a.get('username')} ({a.get('username')})"
    changed = {k: v for k, v in a.items() if k in e.before and e.before[k] != v}
    if e.action != "create" and changed:
        words = {"role": "role", "active": "active", "full_name": "name"}
        parts = [
            f"{words.get(k, field_label(k))} from {_quoted(names, k, e.before[k])} "
            f"to {_quoted(names, k, v)}"
            for k, v in changed.items()
        ]
        return _clause(f"Changed {who}: {'; '.join(parts)}")
    text = f"{'Added' if e.action == 'create' else 'Set'} {who} as {a.get('role')}"
    if a.get("active") is False:
        text += ", no longer active"
    return _clause(text)


def _read(e: Event, names: Names) -> str:
    """An audited look at private details ("read:victim_contact") or a report made."""
    what = e.action.split(":", 1)[1] if ":" in e.action else e.action
    return _clause(f"Looked at the {field_label(what)}")


def _generic(e: Event, names: Names) -> str:
    data = {k: v for k, v in e.after.items() if v not in (None, "", [], {})}
    words = e.action.replace("_", " ").capitalize()
    return _clause(f"{words}: {names.pairs(data)}" if data else words)


#: Event kinds by audit action; "entity:action" narrows one to an entity.
#: Add a kind here and every history shows it in words.
EVENT_KINDS: dict[str, EventKind] = {
    "create": EventKind("Created", _created),
    "person:create": EventKind("Created", _person_created),
    "animal:create": EventKind("Created", _animal_created),
    "fee_schedule:create": EventKind("Fee schedule entered", _fee_schedule),
    "staff_user:create": EventKind("Staff added", _staff),
    "staff_user:update": EventKind("Staff changed", _staff),
    "update": EventKind("Changed", _changes),
    "archive": EventKind("Archived", _archived),
    "add_vaccination": EventKind("Rabies vaccination added", _vaccination),
    "impounded": EventKind("Impounded", _impounded),
    "intake": EventKind("Impounded", _intake),
    "payment": EventKind("Payment recorded", _payment),
    "reclaimed": EventKind("Reclaimed by owner", _released),
    "adopted": EventKind("Adopted", _released),
    "override": EventKind("Supervisor override", _override),
    "transferred": EventKind("Transferred", _simple_disposition),
    "euthanized": EventKind("Euthanized", _simple_disposition),
    "died": EventKind("Died", _simple_disposition),
    "escaped": EventKind("Escaped", _simple_disposition),
    "correct_disposition": EventKind("Disposition corrected", _corrected),
    "correct_intake": EventKind("Intake corrected", _intake_corrected),
    "report:produced": EventKind("Report produced", _generic),
    "report:exported": EventKind("Report exported", _generic),
    "database:copied_to_server": EventKind("Database copied to a server", _generic),
    "database:restore": EventKind("Database restored from a backup", _generic),
}


def all_event_kinds() -> dict[str, EventKind]:
    """The core's event kinds and every installed module's (``Module.event_kinds``)."""
    from fieldops.modules import installed_modules
    from fieldops.services.account_words import account_event_kinds

    kinds = dict(EVENT_KINDS) | {k: EventKind(*v) for k, v in account_event_kinds().items()}
    for module in installed_modules():
        kinds.update(module.event_kinds)
    return kinds


def event_kind(entity: str, action: str) -> EventKind:
    """The entry for an event; an unknown one reads as its action in words and its data."""
    kinds = all_event_kinds()
    found = kinds.get(f"{entity}:{action}") or kinds.get(action)
    if found is None and action.startswith("read:"):
        found = EventKind("Private details viewed", _read)
    return found or EventKind(action.replace("_", " ").capitalize(), _generic)


def describe(e: Event, names: Names) -> tuple[str, str]:
    """(label, sentence) for one event; a builder that trips on odd data falls back to words."""
    kind = event_kind(e.entity, e.action)
    try:
        return kind.label, kind.sentence(e, names)
    except (AttributeError, KeyError, TypeError, ValueError):
        # Old or hand-written data a builder did not expect: still words, never a repr.
        return kind.label, _generic(e, names)


def _staff_names(s: Session, usernames: set[str]) -> dict[str, str]:
    if not usernames:
        return {}
    rows = s.execute(
        select(StaffUser.username, StaffUser.full_name).where(StaffUser.username.in_(usernames))
    ).all()
    return {u: n for u, n in rows if n}


def record_history(
    db: Database, entity: str, entity_id: int, zone: tzinfo
) -> tuple[HistoryLine, ...]:
    """Every audited event of one record, newest first, in words and local time."""
    with db.read() as s:
        events = s.scalars(
            select(AuditEvent)
            .where(AuditEvent.entity == entity, AuditEvent.entity_id == entity_id)
            .order_by(AuditEvent.at.desc(), AuditEvent.id.desc())
        ).all()
        names = Names(s, zone)
        staff = _staff_names(s, {e.actor for e in events})
        out = []
        for row in events:
            event = Event(
                row.action,
                row.entity,
                row.entity_id,
                dict(row.before or {}),
                dict(row.after or {}),
                row.reason or "",
            )
            label, sentence = describe(event, names)
            out.append(
                HistoryLine(
                    row.at,
                    staff.get(row.actor, row.actor),
                    row.action,
                    label,
                    sentence,
                    event.reason,
                )
            )
        return tuple(out)
