"""The calls module's history sentences: its audit actions in words."""

from __future__ import annotations

from fieldops.rules import calls as rules
from fieldops.services.history import Event, EventKind, Names


def _clause(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def parties_words(parties: object, names: Names) -> str:
    """The people and animals involved, as the audit trail keeps them, in words."""
    out = []
    for p in parties if isinstance(parties, list) else []:
        if not isinstance(p, dict):
            continue
        kind = str(p.get("kind", ""))
        if p.get("person_id"):
            who = names.person(p["person_id"])
        elif p.get("animal_id"):
            who = names.animal(p["animal_id"])
        else:
            who = str(p.get("description", ""))
        notes = f", {p['notes']}" if p.get("notes") else ""
        out.append(f"{who} ({rules.party_role_label(kind, str(p.get('role'))).lower()}{notes})")
    return "; ".join(out) or "nobody further"


def sentence(e: Event, names: Names) -> str:
    """The event in words (this module's ``EVENT_KINDS``)."""
    a = e.after or {}
    if e.action == "create_call":
        how = rules.RECEIVED_HOW.get(str(a.get("received_how")), "")
        caller = (
            "anonymous"
            if a.get("anonymous")
            else (a.get("caller_name") or names.person(a.get("caller_id")))
        )
        text = (
            f"{rules.kind_label(str(a.get('kind')))} call at {a.get('address')}, received "
            f"{names.when(a.get('received_at'))} ({how.lower()}), caller {caller}"
        )
        if a.get("recheck_of_id"):
            text += f"; recheck of call #{a['recheck_of_id']}"
        if a.get("parties"):
            text += f"; involved: {parties_words(a['parties'], names)}"
        return _clause(text)
    if e.action == "update_call":
        rest = {k: val for k, val in a.items() if k != "parties"}
        changes = [names.pairs(rest)] if rest else []
        if "parties" in a:
            changes.append(f"involved now: {parties_words(a['parties'], names)}")
        return _clause("Call changed: " + "; ".join(changes))
    if e.action == "dispatch":
        return _clause(
            f"{a.get('officer')} sent to call #{a.get('call_id')} {names.when(a.get('sent_at'))}"
        )
    if e.action == "update_dispatch":
        parts = []
        if a.get("arrived_at"):
            parts.append(f"arrived {names.when(a['arrived_at'])}")
        if a.get("cleared_at"):
            parts.append(f"cleared {names.when(a['cleared_at'])}")
        if a.get("outcome"):
            parts.append(f"outcome: {rules.OUTCOMES.get(str(a['outcome']), a['outcome'])}")
        if a.get("follow_up_on"):
            parts.append(f"follow-up {names.day(a['follow_up_on'])}")
        if a.get("impoundment_id"):
            parts.append(f"impoundment #{a['impoundment_id']}")
        return _clause("Dispatch: " + (", ".join(parts) or names.pairs(a)))
    if e.action == "log_complaint":
        return _clause(f"Complaint logged from {a.get('complainant')}: {a.get('alleged')}")
    if e.action == "notify_owner":
        how = rules.NOTIFY_METHODS.get(str(a.get("notified_how")), "")
        return _clause(
            f"Owner notified of the complaint {how.lower()}, {names.when(a.get('notified_at'))}"
        )
    if e.action == "refuse_petition":
        lacks = "; ".join(rules.PETITION_PARTS.get(k, k) for k in a.get("missing") or [])
        return _clause(
            f"Petition received {names.day(a.get('received_on'))} refused: it lacks {lacks}"
        )
    if e.action == "accept_petition":
        to = rules.REFERRALS.get(str(a.get("referred_to")), "")
        return _clause(
            f"Petition received {names.day(a.get('received_on'))} accepted and referred to "
            f"{to} on {names.day(a.get('referred_on'))}"
        )
    if e.action == "cite":
        money = f"${a['forfeiture']}" if a.get("forfeiture") else "a warning"
        return _clause(
            f"{names.person(a.get('person_id'))} cited under {a.get('section')} for "
            f"{names.day(a.get('offence_on'))} (offence {a.get('offence_number')}): {money}"
        )
    if e.action == "update_citation":
        return _clause(f"Citation changed: {names.pairs(a)}")
    if e.action == "set_caution":
        on = names.person(a.get("person_id")) if a.get("person_id") else a.get("address")
        return _clause(f"Caution set on {on}: {a.get('reason')}")
    if e.action == "clear_caution":
        return _clause(f"Caution cleared: {e.reason}")
    raise ValueError(e.action)


EVENT_KINDS: dict[str, EventKind] = {
    "create_call": EventKind("Call received", sentence),
    "update_call": EventKind("Call changed", sentence),
    "dispatch": EventKind("Officer dispatched", sentence),
    "update_dispatch": EventKind("Dispatch updated", sentence),
    "log_complaint": EventKind("Complaint logged", sentence),
    "notify_owner": EventKind("Owner notified", sentence),
    "refuse_petition": EventKind("Petition refused", sentence),
    "accept_petition": EventKind("Petition accepted", sentence),
    "cite": EventKind("Citation issued", sentence),
    "update_citation": EventKind("Citation changed", sentence),
    "set_caution": EventKind("Caution set", sentence),
    "clear_caution": EventKind("Caution cleared", sentence),
}
