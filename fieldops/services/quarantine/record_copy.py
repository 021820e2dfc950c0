"""Exporting a bite case's record (issue 11): in full, or as a public-records copy for an
open-records request, with the person bitten, their contact and who reported the bite
withheld. The full copy reads the contact through the audited path ("read:victim_contact",
issue 12); either copy's export is audited as ``bite_report:record_exported`` with whether
it was redacted. The events are written in the unit of work that makes the PDF and (with
``export_bite_record``) hands it over: a copy not made, written or printed leaves no event."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import BiteReport, Quarantine, QuarantineCorrection
from fieldops.permissions import Permission, requires
from fieldops.reports.bite_record import CorrectionLine, bite_case_record
from fieldops.rules import Profile, to_local
from fieldops.services.audit import audit_head
from fieldops.services.context import Actor, audit, audit_read, fetch, now
from fieldops.services.quarantine.corrections import CORRECTABLE, TARGET_LABELS
from fieldops.services.quarantine.views import bite_view, quarantine_view

__all__ = ["PRIVATE_FIELDS", "bite_record_pdf", "export_bite_record"]

T = TypeVar("T")

# The bite report's fields a public-records copy withholds (with the contact itself).
PRIVATE_FIELDS = {"victim_name", "victim_contact", "reported_by"}


def _corrections(s: Session, bite_id: int) -> list[CorrectionLine]:
    """The corrections in force: the latest of each corrected field, in the order made."""
    latest: dict[tuple[str, int, str], QuarantineCorrection] = {}
    for c in s.scalars(
        select(QuarantineCorrection)
        .where(QuarantineCorrection.bite_report_id == bite_id)
        .order_by(QuarantineCorrection.id)
    ):
        latest.pop((c.target, c.target_id, c.field), None)
        latest[(c.target, c.target_id, c.field)] = c
    out = []
    for c in latest.values():
        label = CORRECTABLE.get(c.target, {}).get(c.field, (c.field.replace("_", " "), 0))[0]
        where = TARGET_LABELS.get(c.target, "the record")
        out.append(
            CorrectionLine(
                f"{label}, {where}",
                c.old_value,
                c.new_value,
                c.reason,
                c.recorded_by,
                c.recorded_at,
                private=c.target == "bite_report" and c.field in PRIVATE_FIELDS,
            )
        )
    return out


def _private_values(s: Session, bite: BiteReport) -> list[str]:
    """Every value the private fields ever had (a correction's old value too)."""
    values = [bite.victim_name, bite.reported_by, bite.victim_contact]
    for c in s.scalars(
        select(QuarantineCorrection).where(
            QuarantineCorrection.bite_report_id == bite.id,
            QuarantineCorrection.target == "bite_report",
            QuarantineCorrection.field.in_(PRIVATE_FIELDS),
        )
    ):
        values += [c.old_value, c.new_value]
    return values


@requires(Permission.BITE_REPORTS)
def bite_record_pdf(
    db: Database, actor: Actor, bite_report_id: int, profile: Profile, *, redacted: bool
) -> bytes:
    """The bite case's record as PDF bytes: in full, or (``redacted``) the public-records
    copy. Audited: the full copy as a read of the contact, either as an export."""
    return _export(db, actor, bite_report_id, profile, redacted, lambda pdf: pdf)


@requires(Permission.BITE_REPORTS)
def export_bite_record(
    db: Database,
    actor: Actor,
    bite_report_id: int,
    profile: Profile,
    deliver: Callable[[bytes], T],
    *,
    redacted: bool,
) -> T:
    """Make the record and hand it to ``deliver`` (write the file, send it to the printer)
    inside the unit of work that audits it: a delivery that fails leaves no event."""
    return _export(db, actor, bite_report_id, profile, redacted, deliver)


def _export(
    db: Database,
    actor: Actor,
    bite_report_id: int,
    profile: Profile,
    redacted: bool,
    deliver: Callable[[bytes], T],
) -> T:
    head = audit_head(db)
    printed_at = now()
    with db.write() as s:
        bite = fetch(s, BiteReport, bite_report_id)
        view = bite_view(s, bite, profile)
        q = s.scalars(select(Quarantine).where(Quarantine.bite_report_id == bite.id)).first()
        today = to_local(printed_at, profile).date()
        qview = quarantine_view(s, q, profile, today) if q is not None else None
        contact = ""
        if not redacted and bite.victim_contact:
            contact = bite.victim_contact
            audit_read(s, actor, "victim_contact", "bite_report", bite.id)
        pdf = bite_case_record(
            view,
            qview,
            _corrections(s, bite.id),
            contact=contact,
            redacted=redacted,
            private=_private_values(s, bite) if redacted else (),
            jurisdiction=profile.name,
            tz=profile.timezone,
            printed_at=printed_at,
            printed_by=actor.full_name or actor.username,
            audit_head=head,
        )
        audit(s, actor, "record_exported", "bite_report", bite.id, after={"redacted": redacted})
        return deliver(pdf)
