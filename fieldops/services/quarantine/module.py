"""Bite quarantines as a module on the seam: the release block, due items, demo, checks,
what a bite still has to send (kept)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, select, text
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import BiteReport, BiteToSend, Quarantine, QuarantineExam
from fieldops.later import LaterMapping, later_call
from fieldops.modules import (
    ActivitySection,
    Demo,
    DueItem,
    Incident,
    Module,
    ReleaseCase,
    ReportKind,
    ReportOutput,
    ReportRequest,
)
from fieldops.rules import (
    Profile,
    Requirement,
    format_day,
    format_day_short,
    format_instant,
    plural,
)
from fieldops.rules.release import open_quarantine_block
from fieldops.selftest_records import QUARANTINE_STEPS
from fieldops.services.context import now
from fieldops.services.quarantine.to_send import DEAD, none_recorded, stale_bites_to_send

KEY = "quarantine"

CATEGORIES = {
    f"{KEY}.exam_overdue": "Quarantine exam overdue",
    f"{KEY}.delivery_due": "Delivery to the clinic due",
    f"{KEY}.signs_not_reported": "Signs of rabies: health officer not notified",
    f"{KEY}.specimen_not_sent": "Specimen not sent to the laboratory",
    f"{KEY}.referral_not_sent": "Bite not yet referred to the health officer",
    f"{KEY}.exam_due_today": "Quarantine exam due today",
    f"{KEY}.period_ends_today": "Observation ends today",
    f"{KEY}.period_ended_open": "Observation ended, quarantine not closed",
    f"{KEY}.certificate_due_today": "Certificate of quarantine due today",
    f"{KEY}.certificate_overdue": "Certificate of quarantine overdue",
}


def release_blocks(
    session: Session, animal_id: int, _release: ReleaseCase
) -> tuple[Requirement, ...]:
    """No release of any kind while the animal is in an open bite quarantine (58-527)."""
    from fieldops.services.quarantine.records import open_quarantines_of

    found = open_quarantines_of(session, animal_id)
    if not found:
        return (open_quarantine_block(False, "No open bite quarantine on record for this animal."),)
    q = found[0]
    return (
        open_quarantine_block(
            True,
            (
                f"In open bite quarantine #{q.id}: observation until {format_day(q.last_day)}; "
                "released only once the veterinarian certifies it (city code 58-527(b))."
            ),
        ),
    )


RANK = {code: n for n, code in enumerate(CATEGORIES)}
_make = DueItem.maker()


def _item(
    cat: str,
    kind: str,
    rid: int,
    due: date | datetime,
    text_: str,
    overdue: bool,
    officer: str | None,
) -> DueItem:
    """``officer``: the item's bite report's (who took the bite and ordered the
    quarantine), "" when there is none; the officer's day lists an officer's own."""
    code = f"{KEY}.{cat}"
    return _make(
        module=KEY,
        kind=kind,
        record_id=rid,
        due=due,
        category=code,
        category_label=CATEGORIES[code],
        text=text_,
        overdue=overdue,
        sort_key=(RANK[code], rid),
        officer=officer or "",
    )


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """The quarantine items for ``day`` (local date); ``overdue`` ones come first on Today."""
    start = datetime.combine(day, time(0), profile.timezone)
    ref = max(start, now()) if now() < start + timedelta(days=1) else start
    horizon = datetime.combine(day + timedelta(days=2), time(0), profile.timezone)
    items: list[DueItem] = []
    with db.read() as s:
        # Core rows, through the unit of work's connection, where a statement names
        # columns only (the signs of rabies read whole quarantines, through the ORM).
        rows = s.connection().execute(_open_statement()).all()
        # Unpacked, not read by name: a row's attribute costs about a hundred times a
        # column unpacked, and the loop read a dozen of each of 518 rows at a city's
        # size (9.7 ms of 11).
        for (
            qid,
            animal_name,
            owner_name,
            status,
            exam_by,
            exam_due,
            deliver_by,
            delivered_at,
            last_day,
            certificate_received_on,
            certificate_due,
            officer,
        ) in rows:
            who = f"#{qid} {animal_name} ({owner_name or 'owner unknown'})"
            if status == "open":
                if exam_by is not None and exam_by < day:
                    items.append(
                        _item(
                            "exam_overdue",
                            "quarantine",
                            qid,
                            exam_by,
                            f"{who}: exam due by {format_day_short(exam_by, day)} not recorded",
                            True,
                            officer,
                        )
                    )
                elif exam_due is not None and exam_by is not None and exam_due <= day:
                    until = (
                        ""
                        if exam_by == exam_due
                        else (f" (any day until {format_day_short(exam_by, day)})")
                    )
                    items.append(
                        _item(
                            "exam_due_today",
                            "quarantine",
                            qid,
                            day,
                            f"{who}: exam due{until}",
                            False,
                            officer,
                        )
                    )
                if deliver_by is not None and delivered_at is None and deliver_by < horizon:
                    late = deliver_by < ref
                    items.append(
                        _item(
                            "delivery_due",
                            "quarantine",
                            qid,
                            deliver_by,
                            f"{who}: deliver to the clinic by "
                            f"{format_instant(deliver_by, profile)}",
                            late,
                            officer,
                        )
                    )
                if last_day == day:
                    items.append(
                        _item(
                            "period_ends_today",
                            "quarantine",
                            qid,
                            day,
                            f"{who}: last day of observation; last exam and certification today",
                            False,
                            officer,
                        )
                    )
                elif last_day < day:
                    items.append(
                        _item(
                            "period_ended_open",
                            "quarantine",
                            qid,
                            last_day,
                            f"{who}: observation ended {format_day_short(last_day, day)}"
                            "; record the release or the outcome",
                            True,
                            officer,
                        )
                    )
            if certificate_received_on is None:
                if certificate_due == day:
                    items.append(
                        _item(
                            "certificate_due_today",
                            "quarantine",
                            qid,
                            day,
                            f"{who}: certification of quarantine due today",
                            False,
                            officer,
                        )
                    )
                elif certificate_due < day:
                    items.append(
                        _item(
                            "certificate_overdue",
                            "quarantine",
                            qid,
                            certificate_due,
                            f"{who}: certification of quarantine was due "
                            f"{format_day_short(certificate_due, day)}, "
                            f"{plural((day - certificate_due).days, 'day')} ago",
                            True,
                            officer,
                        )
                    )
        items += _case_items(s, day)
    return tuple(sorted(items, key=lambda i: i.sort_key))


@cache
def _open_statement() -> Select[*tuple[Any, ...]]:
    """The quarantines open, or certified without their certificate: the columns the
    items are worded from, not the whole order (a few hundred open at a city's size:
    building each as an ORM object was a quarter of Today's quarantine items), with the
    bite report's officer. Built once, as the statements below."""
    return (
        select(
            Quarantine.id,
            Quarantine.animal_name,
            Quarantine.owner_name,
            Quarantine.status,
            Quarantine.next_exam_by,
            Quarantine.next_exam_due,
            Quarantine.deliver_by,
            Quarantine.delivered_at,
            Quarantine.last_day,
            Quarantine.certificate_received_on,
            Quarantine.certificate_due,
            BiteReport.officer,
        )
        .outerjoin(BiteReport, BiteReport.id == Quarantine.bite_report_id)
        .where(
            (Quarantine.status == "open")
            | ((Quarantine.status == "certified") & Quarantine.certificate_received_on.is_(None))
        )
    )


def _case_items(s: Session, day: date) -> list[DueItem]:
    """Referrals not sent, specimens not sent, signs of rabies not reported.

    Only the cases still waiting are read, never the closed history: referrals and
    specimens from what is kept still to send (``to_send``), signs by an anti-join on
    indexed columns.
    The columns the items are worded from, each with its bite report's officer."""
    out: list[DueItem] = []
    for bite in s.connection().execute(_referrals_statement()):
        out.append(
            _item(
                "referral_not_sent",
                "bite",
                bite.id,
                bite.reported_at,
                f"Bite #{bite.id} by a {bite.animal_description or bite.species}"
                f" at {bite.place}: refer to the health officer",
                True,
                bite.officer,
            )
        )
    for q in s.connection().execute(_dead_statement()):  # sorted below
        out.append(
            _item(
                "specimen_not_sent",
                "quarantine",
                q.id,
                # A died/euthanized status is always set with its event's time (plan.state_of);
                # the order's time stands in only for a row written past the services.
                q.closed_at or q.ordered_at,
                f"#{q.id} {q.animal_name}: {q.status}; send the specimen to the "
                "State Laboratory of Hygiene (do not damage the head)",
                True,
                q.officer,
            )
        )
    for q in s.connection().execute(_signs_statement()).all():
        if _signs_stand(s, q.id, q.bite_report_id):
            out.append(
                _item(
                    "signs_not_reported",
                    "quarantine",
                    q.id,
                    day,
                    f"#{q.id} {q.animal_name}: signs of rabies at an exam; notify the "
                    "health officer and record it",
                    True,
                    q.officer,
                )
            )
    return out


@cache
def _referrals_statement() -> Select[*tuple[Any, ...]]:
    """Bites to refer to the health officer with no referral sent on record (kept,
    ``to_send``)."""
    return (
        select(
            BiteReport.id,
            BiteReport.reported_at,
            BiteReport.animal_description,
            BiteReport.species,
            BiteReport.place,
            BiteReport.officer,
        )
        .join(BiteToSend, BiteToSend.bite_report_id == BiteReport.id)
        .where(BiteToSend.kind == "referral_sent")
        .order_by(BiteReport.id)
    )


@cache
def _dead_statement() -> Select[*tuple[Any, ...]]:
    """Quarantined animals that died or were euthanized with no specimen sent on record
    (kept, ``to_send``)."""
    return (
        select(
            Quarantine.id,
            Quarantine.closed_at,
            Quarantine.ordered_at,
            Quarantine.animal_name,
            Quarantine.status,
            BiteReport.officer,
        )
        .join(BiteToSend, BiteToSend.bite_report_id == Quarantine.bite_report_id)
        .outerjoin(BiteReport, BiteReport.id == Quarantine.bite_report_id)
        .where(BiteToSend.kind == "specimen_sent", Quarantine.status.in_(DEAD))
    )


@cache
def _signs_statement() -> Select[*tuple[Any, ...]]:
    """Quarantines with an exam finding signs of rabies and no report of them on record
    (``_signs_stand`` reads the corrections of their exams), as Core rows: on most days
    there are none, and the ORM's part of asking was most of the statement's time."""
    signs = select(QuarantineExam.quarantine_id).where(QuarantineExam.finding == "signs_of_rabies")
    return (
        select(Quarantine.id, Quarantine.bite_report_id, Quarantine.animal_name, BiteReport.officer)
        .outerjoin(BiteReport, BiteReport.id == Quarantine.bite_report_id)
        .where(
            Quarantine.id.in_(signs), none_recorded("signs_of_rabies", Quarantine.bite_report_id)
        )
        .order_by(Quarantine.id)
    )


def _signs_stand(s: Session, quarantine_id: int, bite_report_id: int) -> bool:
    """Whether an exam's finding of signs of rabies still stands after the corrections."""
    from fieldops.services.quarantine.fixes import corrections_of, finding_of

    fixes = corrections_of(s, bite_report_id)
    exams = s.scalars(select(QuarantineExam).where(QuarantineExam.quarantine_id == quarantine_id))
    return any(finding_of(fixes, x) == "signs_of_rabies" for x in exams)


def checks(conn: Connection) -> list[str]:
    """Quarantines written past the services, and copies out of step with their records."""
    from fieldops.services.quarantine.plan import STATUS_BY_EVENT, events_of

    out = []
    n = conn.execute(
        text(
            "SELECT count(*) FROM quarantine t WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
            "WHERE e.entity = 'quarantine' AND e.entity_id = t.id AND e.action = "
            "'quarantine_order')"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} quarantine(s) have no audit trail of their order")
    # Status, delivery and certificate follow from the events alone (no profile needed).
    stale = []
    with Session(bind=conn) as s:
        for q in s.scalars(select(Quarantine)):
            status, delivered, received = "open", None, None
            for e in events_of(s, q.bite_report_id):
                if e.kind in STATUS_BY_EVENT and status == "open":
                    status = STATUS_BY_EVENT[e.kind]
                elif e.kind == "delivered":
                    delivered = e.at
                elif e.kind == "broken_home":
                    delivered = None
                elif e.kind == "certificate_received":
                    received = e.received_on
            if (q.status, q.delivered_at, q.certificate_received_on) != (
                status,
                delivered,
                received,
            ):
                stale.append(q.id)
    if stale:
        out.append(
            f"{len(stale)} quarantine(s) show a state their records do not support: "
            + ", ".join(f"#{i}" for i in stale[:10])
        )
    return out


def _build_log(request: ReportRequest) -> ReportOutput:
    from fieldops.services.quarantine.log import build_log

    return build_log(request)


def _activity(db: Database, start: date, end: date) -> tuple[ActivitySection, ...]:
    from fieldops.services.quarantine.log import activity

    return activity(db, start, end)


def demo(d: Demo) -> str:
    from fieldops.services.quarantine.demo import fill

    n = fill(d)
    return f"{n} bite reports" if n else ""


def places(session: Session, person_ids: tuple[int, ...], address: str) -> list[Incident]:
    """Bites by these people's animals, or at this address (the calls module's history
    by address and by owner), newest first; no victim's details."""
    from sqlalchemy import ColumnElement, func, or_

    from fieldops.rules.calls import street_part

    part = street_part(address)
    where: list[ColumnElement[bool]] = [BiteReport.owner_id.in_(person_ids)] if person_ids else []
    if part:
        where.append(func.lower(BiteReport.place).contains(part, autoescape=True))
    if not where:
        return []
    rows = session.scalars(
        select(BiteReport).where(or_(*where)).order_by(BiteReport.bitten_at.desc()).limit(200)
    )
    return [
        Incident(
            KEY,
            "bite",
            b.id,
            b.bitten_at,
            b.place,
            f"Bite by a {b.animal_description or b.species} (bite report #{b.id})",
        )
        for b in rows
    ]


MODULE = Module(
    KEY,
    "Bite quarantines",
    release_blocks=release_blocks,
    # What Today does not need is imported at its first use (fieldops/later.py, issue 14).
    release_charges=later_call("fieldops.services.quarantine.fees:release_charges"),
    due_items=due_items,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    # What a bite still has to send (migration 0032), kept by triggers from its report,
    # quarantine and events: migrate-to's target keeps it from the rows as copied.
    kept_tables={"bite_to_send": stale_bites_to_send},
    append_only=("bite_report", "quarantine_exam", "quarantine_event", "quarantine_correction"),
    event_kinds=LaterMapping("fieldops.services.quarantine.history_words:EVENT_KINDS"),
    reports=(
        ReportKind(
            "quarantine-log",
            "Quarantine log (58-527)",
            _build_log,
            description="Every bite of a period: placement, exams done against required, "
            "outcome, certificate returned or overdue, referrals.",
        ),
    ),
    activity=_activity,
    incidents=later_call("fieldops.services.quarantine.incidents:bite_incidents"),
    places=places,
    self_test=QUARANTINE_STEPS,  # fieldops --self-test (fieldops/selftest_records.py)
)
