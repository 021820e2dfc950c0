"""The vicious-animal module's history sentences: its audit actions in words."""

from __future__ import annotations

from fieldops.rules import vicious as vr
from fieldops.services.history import Event, EventKind, Names
from fieldops.services.vicious.views import STATUS_LABELS


def _clause(text: str) -> str:
    """A sentence ends with one full stop."""
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _status(code: object) -> str:
    """A case status in the words the case view shows (a code it does not know, as written)."""
    return STATUS_LABELS.get(str(code), str(code or "").replace("_", " "))


def sentence(e: Event, names: Names) -> str:
    """The event in words (this module's ``EVENT_KINDS``)."""
    a = e.after
    if e.action in ("declare", "refuse_declaration"):
        grounds = "; ".join(vr.GROUND_SECTIONS.get(g, g) for g in a.get("grounds") or [])
        text = (
            f"{'Declared' if e.action == 'declare' else 'Declaration refused for'} "
            f"{names.animal(a.get('animal_id'))} vicious, owner "
            f"{names.person(a.get('owner_id'))}, by {a.get('officer') or 'the officer'} "
            f"{names.when(a.get('decided_at'))}; grounds {grounds or 'none'}"
        )
        found = [vr.EXCEPTION_SECTIONS.get(x, x) for x in a.get("exceptions_found") or []]
        if found:
            text += f"; exception found to apply: {', '.join(found)}"
        return _clause(text)
    if e.action == "declared_vicious":
        return _clause(f"Declared vicious (case #{a.get('vicious_case')})")
    if e.action == "serve_notice":
        how = vr.NOTICE_METHODS.get(str(a.get("method")), str(a.get("method")))
        return _clause(
            f"Notice served by {a.get('served_by')} {names.when(a.get('served_at'))} "
            f"at {a.get('place')} ({how[0].lower()}{how[1:]}); deadline "
            f"{names.when(a.get('deadline'))}"
        )
    if e.action == "record_outcome":
        text = f"{vr.OUTCOMES.get(str(a.get('kind')), a.get('kind'))}, {names.when(a.get('at'))}"
        for key, word in (
            ("by_whom", "by"),
            ("proof", "proof:"),
            ("removed_to", "to"),
            ("confirmed_how", "confirmed:"),
        ):
            if a.get(key):
                text += f", {word} {a[key]}"
        return _clause(text)
    if e.action in ("add_step", "complete_step"):
        kind = str(a.get("kind"))
        label = f"{vr.NEXT_STEPS.get(kind, kind)} ({vr.NEXT_STEP_SECTIONS.get(kind, '')})"
        if e.action == "add_step":
            return _clause(f"Next step: {label}, due {names.day(a.get('due_on'))}")
        return _clause(f"Taken {names.day(a.get('done_on'))}: {label}: {a.get('result')}")
    if e.action == "end_declaration":
        return _clause(
            f"{vr.ENDINGS.get(str(a.get('kind')), a.get('kind'))} by "
            f"{a.get('authority')}, {names.day(a.get('decided_on'))}"
        )
    if e.action == "status":
        if "status" not in a:
            return _clause("Case summary updated")
        before = (e.before or {}).get("status")
        return _clause(
            f"Status changed from “{_status(before)}” to “{_status(a.get('status'))}”"
            if before
            else f"Status set to “{_status(a.get('status'))}”"
        )
    # Not one of the module's actions: history then words it generically.
    raise ValueError(e.action)


# Contributed to every record's history through the module seam (``Module.event_kinds``).
EVENT_KINDS: dict[str, EventKind] = {
    "declare": EventKind("Declared vicious", sentence),
    "animal:declared_vicious": EventKind("Declared vicious", sentence),
    "refuse_declaration": EventKind("Declaration refused", sentence),
    "serve_notice": EventKind("Notice served", sentence),
    "record_outcome": EventKind("Outcome recorded", sentence),
    "add_step": EventKind("Next step", sentence),
    "complete_step": EventKind("Next step taken", sentence),
    "end_declaration": EventKind("Declaration ended", sentence),
    "vicious_case:status": EventKind("Status changed", sentence),
}
