"""Serving the written notice to destroy or remove the animal (58-524(c)(2))."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select

from fieldops.db.engine import Database
from fieldops.db.models import ViciousDeclaration, ViciousNotice
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_instant, vicious_notice_deadline
from fieldops.rules import vicious as rules
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save
from fieldops.services.vicious.cases import build_view, load, set_summary
from fieldops.services.vicious.views import CaseView


@dataclass(frozen=True)
class NoticeInput:
    method: str  # "in_person" | "posted" (the owner refused it)
    served_at: datetime | None  # when handed over, or when posted on the door
    served_by: str
    place: str  # where it was served; for a posting, the residence's front door
    notes: str = ""


@requires(Permission.NOTICES)
def serve_notice(
    db: Database,
    actor: Actor,
    case_id: int,
    inp: NoticeInput,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> CaseView:
    """Record the notice served, with its deadline from the rules (48 hours, Sundays and
    legal holidays left out). A notice served again (a defect in the first) needs a note
    saying why; the earlier one stays on record."""
    at = now()
    c = Collector()
    c.check(
        inp.method in rules.NOTICE_METHODS,
        "method",
        "Choose how the notice was served: in person, or posted on the front door.",
    )
    if inp.served_at is None:
        c.add("served_at", "Date and time of service are required.")
    elif not v.instant(c, "served_at", inp.served_at, "The date and time of service"):
        pass  # not a storable date and time: said so
    elif inp.served_at > at + timedelta(minutes=5):
        c.add("served_at", "Service cannot be in the future.")
    col = ViciousNotice.__table__.c
    v.required(c, "served_by", v.clean(inp.served_by), "Served by", col.served_by)
    v.required(
        c,
        "place",
        v.clean(inp.place),
        "The front door's address" if inp.method == "posted" else "Where it was served",
        col.place,
    )
    v.optional_len(c, "notes", (inp.notes or "").strip(), "Notes", 4000)
    c.raise_if_any()
    assert inp.served_at is not None
    with db.write() as s:
        if (done := existing_save(s, client_key, "vicious_action", actor)) is not None:
            return build_view(s, load(s, done), profile)  # a retry: already recorded
        case = load(s, case_id, lock=True, version=version)
        if case.status not in ("declared", "served"):
            raise ValidationError(
                {
                    "case": (
                        "A notice is served only on a declaration in force with no outcome yet; this "
                        f"case is {case.status.replace('_', ' ')}."
                    )
                }
            )
        decided = s.scalar(
            select(ViciousDeclaration.decided_at).where(ViciousDeclaration.case_id == case.id)
        )
        if decided is not None and inp.served_at < decided:
            raise ValidationError(
                {"served_at": "The notice cannot be served before the declaration was made."}
            )
        served = s.scalar(
            select(func.max(ViciousNotice.served_at)).where(ViciousNotice.case_id == case.id)
        )
        if served is not None and inp.served_at < served:
            raise ValidationError(
                {
                    "served_at": "A notice served again cannot be dated before the notice it "
                    f"follows ({format_instant(served, profile, midnight='plain')}): the "
                    f"{profile.notice_hours} hours run from the latest service."
                }
            )
        if case.status == "served" and not (inp.notes or "").strip():
            raise ValidationError(
                {
                    "notes": "A notice is already served: say why it is served "
                    "again (the earlier one stays on record)."
                }
            )
        deadline = vicious_notice_deadline(inp.served_at, profile)
        n = ViciousNotice(
            case_id=case.id,
            method=inp.method,
            served_at=inp.served_at,
            served_by=v.clean(inp.served_by),
            place=v.clean(inp.place),
            deadline=deadline,
            notes=(inp.notes or "").strip(),
            recorded_by=actor.username,
            recorded_at=at,
        )
        s.add(n)
        s.flush()
        audit(
            s,
            actor,
            "serve_notice",
            "vicious_case",
            case.id,
            after=jsonable(
                {
                    "notice": n.id,
                    "method": n.method,
                    "served_at": n.served_at,
                    "served_by": n.served_by,
                    "place": n.place,
                    "deadline": deadline,
                }
            ),
        )
        set_summary(s, actor, case, "notice served", status="served", notice_deadline=deadline)
        s.flush()
        remember_save(s, client_key, "vicious_action", case.id, actor)
        return build_view(s, case, profile)
