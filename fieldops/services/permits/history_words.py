"""The permit module's history sentences: its audit actions in words."""

from __future__ import annotations

from fieldops.services.history import Event, EventKind, Names, money
from fieldops.services.permits.views import (
    ENDING_LABELS,
    INCIDENT_LABELS,
    KIND_LABELS,
    OUTCOME_LABELS,
    PURPOSE_LABELS,
    STATUS_LABELS,
)


def _clause(text: str) -> str:
    """A sentence ends with one full stop."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _status(code: object) -> str:
    return STATUS_LABELS.get(str(code), str(code or "").replace("_", " "))


def _animals(items: object) -> str:
    out = []
    for x in items if isinstance(items, list) else []:
        if isinstance(x, dict):
            names = f" ({x.get('names')})" if x.get("names") else ""
            out.append(f"{x.get('count')} {x.get('species')}{names}")
    return "; ".join(out) or "none"


def sentence(e: Event, names: Names) -> str:
    """The event in words (this module's ``EVENT_KINDS``)."""
    a = e.after
    if e.action in ("permit_applied", "permit_refused"):
        kind = KIND_LABELS.get(str(a.get("kind")), "Permit")
        which = "first permit" if a.get("first") else "renewal"
        text = (
            f"{kind} applied for ({which}, {a.get('year')}) by "
            f"{names.person(a.get('holder_id'))} at {a.get('address')} on "
            f"{names.day(a.get('applied_on'))}, fees {money(a.get('total'))}"
            + (" (late fee included)" if a.get("late") else "")
        )
        if a.get("hens") is not None:
            text += (
                f"; {a.get('hens')} hens, {a.get('roosters') or 0} roosters, enclosure "
                f"{a.get('setback_feet')} feet from the line"
            )
        if e.action == "permit_refused":
            text += "; refused: " + " ".join(str(p) for p in a.get("problems") or [])
        return _clause(text)
    if e.action == "permit_issued":
        what = "Renewal issued" if a.get("renewal") else "Issued"
        text = (
            f"{what} for {a.get('year')} on {names.day(a.get('issued_on'))}, in force to "
            f"{names.day(a.get('expires_on'))}"
        )
        if a.get("paid_amount") is not None:
            text += (
                f"; paid {money(a.get('paid_amount'))} ({a.get('payment_method')}), "
                f"receipt {a.get('receipt_number')}"
            )
        return _clause(text)
    if e.action == "permit_animals_changed":
        return _clause(
            f"Change in the animals on {names.day(a.get('changed_on'))} noted "
            f"({a.get('note')}); the list is due by {names.day(a.get('due_by'))}"
        )
    if e.action == "permit_list_updated":
        late = " (late)" if a.get("late") else ""
        return _clause(
            f"Animal list updated on {names.day(a.get('updated_on'))}{late} after the change "
            f"on {names.day(a.get('changed_on'))}: {_animals(a.get('animals'))}"
        )
    if e.action == "permit_incident":
        kind = INCIDENT_LABELS.get(str(a.get("kind")), str(a.get("kind")))
        ending = ENDING_LABELS.get(str(a.get("ending")), str(a.get("ending")))
        number = f" {a.get('citation_number')}" if a.get("citation_number") else ""
        if a.get("distance_feet") is not None:
            number += f" (complaint, {a.get('distance_feet')} feet away)"
        return _clause(
            f"Incident ({kind.lower()}) on {names.day(a.get('occurred_on'))}: {ending.lower()}"
            f"{number}"
        )
    if e.action == "permit_reviewed":
        what = PURPOSE_LABELS.get(str(a.get("purpose")), "Review")
        counted = len(a.get("counted") or [])
        decided = (
            "renew"
            if a.get("renew")
            else ("not renewed" if a.get("purpose") == "renewal" else "revoked")
        )
        return _clause(
            f"{what} on {names.day(a.get('review_day'))}: {counted} incident(s) counted; "
            f"decided: {decided}"
        )
    if e.action == "permit_notice_mailed":
        return _clause(
            f"Notice mailed by certified mail on {names.day(a.get('mailed_on'))}, article "
            f"{a.get('article_number')}; appeal due by {names.day(a.get('appeal_by'))}"
        )
    if e.action == "permit_appeal_filed":
        return _clause(
            f"Appeal filed on {names.day(a.get('filed_on'))}: enforcement stayed until it is "
            "decided"
        )
    if e.action == "permit_appeal_decided":
        return _clause(
            f"{OUTCOME_LABELS.get(str(a.get('outcome')), str(a.get('outcome')))} on appeal by "
            f"{a.get('authority')}, {names.day(a.get('decided_on'))}"
        )
    if e.action == "permit_revoked":
        return _clause(f"Revoked for a violation on {names.day(a.get('revoked_on'))}")
    if e.action == "permit_status":
        if "status" not in a:
            if a.get("appeal_by"):
                return _clause(f"Appeal due by {names.day(a.get('appeal_by'))}")
            if "list_update_due" in a:
                due = a.get("list_update_due")
                return _clause(
                    f"Animal list due by {names.day(due)}" if due else "Animal list up to date"
                )
            return _clause("Permit summary updated")
        before = (e.before or {}).get("status")
        return _clause(
            f"Status changed from “{_status(before)}” to “{_status(a.get('status'))}”"
            if before
            else f"Status set to “{_status(a.get('status'))}”"
        )
    raise ValueError(e.action)  # not one of the module's: history words it generically


# Contributed to every record's history through the module seam (``Module.event_kinds``).
EVENT_KINDS: dict[str, EventKind] = {
    "permit_applied": EventKind("Permit applied for", sentence),
    "permit_refused": EventKind("Permit refused", sentence),
    "permit_issued": EventKind("Permit issued", sentence),
    "permit_animals_changed": EventKind("Animals changed", sentence),
    "permit_list_updated": EventKind("Animal list updated", sentence),
    "permit_incident": EventKind("Incident recorded", sentence),
    "permit_reviewed": EventKind("Annual review", sentence),
    "permit_notice_mailed": EventKind("Notice mailed", sentence),
    "permit_appeal_filed": EventKind("Appeal filed", sentence),
    "permit_appeal_decided": EventKind("Appeal decided", sentence),
    "permit_revoked": EventKind("Permit revoked", sentence),
    "permit_status": EventKind("Status changed", sentence),
}
