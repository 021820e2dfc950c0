"""The bite-quarantine module's history sentences: its audit actions in words.

Contributed to every record's history through the module seam
(``Module.event_kinds``), so the core's history knows no module.
"""

from __future__ import annotations

from collections.abc import Callable

from fieldops.rules.quarantine import EXAM_FINDINGS
from fieldops.services.history import Event, EventKind, Names, _clause, money

# One sentence per action, from the event's stored data.
_QUARANTINE_WORDS = {
    "quarantine_delivered": "Delivered to the clinic on {at}",
    "quarantine_broken_home": "Found improperly confined or at large on {at}; moved to a clinic "
    "for the balance of the period",
    "quarantine_extended": "Observation extended to {new_last_day} by {who}",
    "quarantine_signs": "Signs of rabies: {who} notified on {at}",
    "quarantine_died": "Died on {at}; quarantine closed",
    "quarantine_euthanized": "Euthanized on {at}; quarantine closed",
    "quarantine_specimen": "Specimen sent to the State Laboratory of Hygiene on {at} by {who}",
    "quarantine_escaped": "Escaped on {at}; quarantine closed",
    "quarantine_released": "Released on {at}, certified free of signs of rabies by {who}",
    "quarantine_certificate": "Certification of quarantine received on {received_on}",
    "bite_referral": "Referred to the health officer, {who}, on {at}",
}


def _quarantine_event(e: Event, names: Names) -> str:
    a = e.after
    text = _QUARANTINE_WORDS[e.action].format(
        at=names.when(a.get("at")),
        who=a.get("who") or "the veterinarian",
        new_last_day=names.day(a.get("new_last_day")),
        received_on=names.day(a.get("received_on")),
    )
    if a.get("citation"):
        text += f"; citation {a['citation']}"
    if a.get("notes"):
        text += f" ({a['notes']})"
    return _clause(text)


def _bite_report(e: Event, names: Names) -> str:
    a = e.after
    what = (
        names.animal(a["animal_id"])
        if isinstance(a.get("animal_id"), int)
        else f"an unidentified {a.get('species') or 'animal'}"
    )
    text = (
        f"Bite reported: {what} bit {a.get('victim_name')} at {a.get('place')} on "
        f"{names.when(a.get('bitten_at'))}; reported by {a.get('reported_by')}"
    )
    text += (
        "; rabies vaccination current on the day of the bite"
        if a.get("rabies_proof")
        else "; no proof of current rabies vaccination"
    )
    if a.get("referral"):
        text += "; to be referred to the health officer"
    return _clause(text)


def _quarantine_order(e: Event, names: Names) -> str:
    a = e.after
    where = "at home" if a.get("placement") == "home" else "in a licensed clinic"
    text = (
        f"Quarantine ordered {where} on {names.when(a.get('ordered_at'))}: observation until "
        f"{names.day(a.get('last_day'))}, certificate due {names.day(a.get('certificate_due'))}"
    )
    if a.get("deliver_by"):
        text += f", deliver by {names.when(a.get('deliver_by'))}"
    return _clause(text)


def _quarantine_exam(e: Event, names: Names) -> str:
    a = e.after
    finding = {
        "no_signs": "no signs of rabies",
        "signs_of_rabies": "signs of rabies",
        "died": "the animal had died",
    }.get(str(a.get("finding")), a.get("finding"))
    slot = (
        f" ({a['counts_as']} examination)"
        if a.get("counts_as")
        else " (on none of the required days)"
    )
    return _clause(
        f"Examined on {names.day(a.get('examined_on'))} by {a.get('veterinarian')}"
        f"{slot}: {finding}; fee {money(a.get('fee'))}"
    )


_TARGETS = {"bite_report": "the bite report", "exam": "an examination", "event": "an event"}


def _correction(e: Event, names: Names) -> str:
    a, b = e.after, e.before or {}
    field = next((k for k in a if k not in ("target", "target_id", "correction")), "")
    where = _TARGETS.get(str(a.get("target")), "the record")
    words, said = _FIELD_WORDS.get(field, (field.replace("_", " "), None))

    def value(x: object) -> str:
        if not x:
            return "blank"
        return said(names, x) if said else str(x)

    return _clause(
        f"Corrected the {words} of {where}: “{value(b.get(field))}” became “{value(a.get(field))}”"
    )


def _when(names: Names, x: object) -> str:
    return names.when(x)


def _day(names: Names, x: object) -> str:
    return names.day(x)


def _finding(_names: Names, x: object) -> str:
    return EXAM_FINDINGS.get(str(x), str(x))


# The fields kept as codes or ISO text, in words.
_FIELD_WORDS: dict[str, tuple[str, Callable[[Names, object], str]]] = {
    "bitten_at": ("time of the bite", _when),
    "examined_on": ("date", _day),
    "finding": ("finding", _finding),
}


EVENT_KINDS: dict[str, EventKind] = {
    "quarantine_correction": EventKind("Correction", _correction),
    "bite_report": EventKind("Bite reported", _bite_report),
    "quarantine_order": EventKind("Quarantine ordered", _quarantine_order),
    "quarantine_exam": EventKind("Examination", _quarantine_exam),
    "quarantine_delivered": EventKind("Delivered to the clinic", _quarantine_event),
    "quarantine_broken_home": EventKind("Home quarantine broken", _quarantine_event),
    "quarantine_extended": EventKind("Observation extended", _quarantine_event),
    "quarantine_signs": EventKind("Signs of rabies", _quarantine_event),
    "quarantine_died": EventKind("Died", _quarantine_event),
    "quarantine_euthanized": EventKind("Euthanized", _quarantine_event),
    "quarantine_specimen": EventKind("Specimen sent", _quarantine_event),
    "quarantine_escaped": EventKind("Escaped", _quarantine_event),
    "quarantine_released": EventKind("Released, certified", _quarantine_event),
    "quarantine_certificate": EventKind("Certificate received", _quarantine_event),
    "bite_referral": EventKind("Referred to the health officer", _quarantine_event),
    "bite_report:record_exported": EventKind(
        "Case record exported",
        lambda e, _n: _clause(
            "Exported the case record as a public-records copy (private details withheld)"
            if e.after.get("redacted")
            else "Exported the case record in full"
        ),
    ),
}
