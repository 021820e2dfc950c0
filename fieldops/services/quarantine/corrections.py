"""Correcting a mistake in a bite case: a supervisor's new, audited correction with a reason.

Nothing is edited in place: the bite report, the exam or the event stays as written,
and a ``quarantine_correction`` row (append-only) gives the field's new value and why.
The views show the latest correction of each field; the history shows the value
before and after, and the reason.

What can be corrected: the words of the report (place, the person bitten, who reported
it, the officer, the animal's description, the certificate number, notes), an exam's
veterinarian and fee, an event's who, citation and notes; and the dates the plan rests
on, in ``correction_dates``: the time of the bite (every deadline is asked of the rules
again), an exam's date and its finding. The order's copies are rewritten from the
corrected records (``plan.refresh``) in the same unit of work.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import (
    BiteReport,
    Quarantine,
    QuarantineCorrection,
    QuarantineEvent,
    QuarantineExam,
)
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, now
from fieldops.services.quarantine.correction_dates import DATED, check_dated, kept
from fieldops.services.quarantine.fixes import (
    Key,
    corrected,
    corrected_fee,
    corrections_of,
)
from fieldops.services.quarantine.plan import refresh
from fieldops.services.quarantine.steps import Done

__all__ = ["CORRECTABLE", "Key", "correct_record", "corrected", "corrected_fee", "corrections_of"]

_BITE, _EXAM, _EVENT = (
    BiteReport.__table__.c,
    QuarantineExam.__table__.c,
    QuarantineEvent.__table__.c,
)

# target -> field -> (label, longest value: the column's, or a Text field's form limit)
CORRECTABLE: dict[str, dict[str, tuple[str, v.Limit]]] = {
    "bite_report": {
        "place": ("Where the bite happened", _BITE.place),
        "victim_name": ("The person bitten", _BITE.victim_name),
        "reported_by": ("Who reported it", _BITE.reported_by),
        "officer": ("The officer", _BITE.officer),
        "animal_description": ("The description of the animal", _BITE.animal_description),
        "rabies_certificate": ("The rabies certificate number", _BITE.rabies_certificate),
        "notes": ("Notes", 4000),
        "bitten_at": ("The time of the bite", 40),
    },
    "exam": {
        "veterinarian": ("The veterinarian", _EXAM.veterinarian),
        "fee": ("The fee", 20),
        "examined_on": ("The date of the examination", 10),
        "finding": ("The finding", 20),
    },
    "event": {
        "who": ("Who", _EVENT.who),
        "citation": ("The citation number", _EVENT.citation),
        "notes": ("Notes", 4000),
    },
}
TARGET_LABELS = {"bite_report": "the bite report", "exam": "an examination", "event": "an event"}
OPTIONAL = {"animal_description", "rabies_certificate", "notes", "citation"}


def _record(s: Session, bite: BiteReport, target: str, target_id: int) -> object:
    row: object | None
    if target == "bite_report":
        row = bite if target_id == bite.id else None
    elif target == "exam":
        row = v.row(s, QuarantineExam, target_id)  # None also for an id no INTEGER holds
        q = s.scalar(
            select(Quarantine).where(Quarantine.bite_report_id == bite.id).with_for_update()
        )
        if row is not None and (q is None or row.quarantine_id != q.id):
            row = None
    else:
        row = v.row(s, QuarantineEvent, target_id)
        if row is not None and row.bite_report_id != bite.id:
            row = None
    if row is None:
        raise ValidationError({"target": f"This case has no such {target.replace('_', ' ')}."})
    return row


@requires(Permission.CORRECTIONS)
def correct_record(
    db: Database,
    actor: Actor,
    bite_report_id: int,
    target: str,
    target_id: int,
    field: str,
    new_value: str,
    reason: str,
    profile: Profile | None = None,
) -> Done:
    """Correct one field of the bite report, an exam or an event (a supervisor's task).

    A date or a finding (``DATED``) needs the profile: the plan is asked of the rules
    again, and a value the rules make impossible is refused beside the field."""
    if field not in CORRECTABLE.get(target, {}):
        raise ValidationError({"field": "Choose what to correct."})
    label, longest = CORRECTABLE[target][field]
    with db.write() as s:
        bite = v.row(s, BiteReport, bite_report_id)
        if bite is None:
            raise ValidationError({"target": f"There is no bite report #{bite_report_id}."})
        row = _record(s, bite, target, target_id)
        fixes = corrections_of(s, bite.id)
        raw = getattr(row, field)
        c = Collector()
        value = (new_value or "").strip() if field == "notes" else v.clean(new_value)
        q = s.scalar(
            select(Quarantine).where(Quarantine.bite_report_id == bite.id).with_for_update()
        )
        old = corrected(fixes, target, target_id, field, _stored(raw))
        if (target, field) in DATED:
            if profile is None:
                raise ValueError("a correction of a date or a finding needs the profile")
            value = check_dated(s, c, bite, q, row, field, value, fixes, profile)
        elif field == "fee":
            fee = v.money(c, "new_value", value, label)
            if fee is not None:
                value = f"{fee}"
        elif field in OPTIONAL:
            v.optional_len(c, "new_value", value, label, longest)
        else:
            v.required(c, "new_value", value, label, longest)
        v.required(c, "reason", v.clean(reason), "The reason for the correction", 2000)
        if not v.text(c, "new_value", value, label, 4000):
            c.raise_if_any()  # nothing below may look at it
        c.raise_if_any()
        if value == old:
            now_on = kept(field, old, profile) if profile and (target, field) in DATED else old
            raise ValidationError(
                {"new_value": f"{label} is already {now_on or 'blank'}: nothing to correct."}
            )
        fix = QuarantineCorrection(
            bite_report_id=bite.id,
            target=target,
            target_id=target_id,
            field=field,
            old_value=old,
            new_value=value,
            reason=v.clean(reason),
            recorded_at=now(),
            recorded_by=actor.username,
        )
        s.add(fix)
        s.flush()
        q_id = q.id if q is not None else None
        if q is not None and (target, field) in DATED:
            assert profile is not None
            refresh(s, bite, q, profile)
        audit(
            s,
            actor,
            "quarantine_correction",
            "quarantine" if q_id is not None else "bite_report",
            q_id if q_id is not None else bite.id,
            before={"target": target, "target_id": target_id, field: old},
            after={"target": target, "target_id": target_id, field: value, "correction": fix.id},
            reason=fix.reason,
        )
        return Done(q_id, bite.id)


def _stored(raw: object) -> str:
    """A stored date as the correction keeps it (ISO; a time in UTC)."""
    from datetime import UTC, date, datetime

    if isinstance(raw, datetime):
        return raw.astimezone(UTC).isoformat()
    if isinstance(raw, date):
        return raw.isoformat()
    return "" if raw is None else str(raw)
