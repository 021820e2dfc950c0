"""Citations (58-534(b)): each day of a continuing violation is a separate offence, and
the forfeiture comes from the profile's ladder, a repeat offence climbing it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CallCitation, FieldCall, Person
from fieldops.errors import (
    Collector,
    NotFoundError,
    StaleRecordError,
    UserError,
    ValidationError,
)
from fieldops.permissions import Permission, requires
from fieldops.rules import Penalty, Profile, format_day, penalty_for, to_local
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.records import citation_view
from fieldops.services.calls.views import CitationView
from fieldops.services.context import Actor, audit, changed_only, now, require_row_id, snapshot

ENTITY = "call_citation"
FIELDS = (
    "call_id",
    "person_id",
    "section",
    "offence_on",
    "offence_number",
    "forfeiture",
    "warning",
    "address",
    "court_on",
    "issued_by",
)


@dataclass(frozen=True)
class CitationInput:
    person_id: int | None
    section: str
    days: tuple[date, ...]  # each day of the violation: one offence each
    issued_by: str
    call_id: int | None = None
    address: str = ""
    description: str = ""
    court_on: date | None = None


def earlier_offences(s: Session, person_id: int, section: str, before: date) -> int:
    """How many times the person was cited for ``section`` for days before ``before``
    (a voided citation is no offence: it counts on no ladder)."""
    return (
        s.scalar(
            select(func.count())
            .select_from(CallCitation)
            .where(
                CallCitation.person_id == person_id,
                CallCitation.section == section,
                CallCitation.offence_on < before,
                CallCitation.voided_at.is_(None),
            )
        )
        or 0
    )


def penalties(
    s: Session, person_id: int, section: str, days: tuple[date, ...], profile: Profile
) -> tuple[Penalty, ...]:
    """The penalty for each day, in the order of the days, counting earlier citations."""
    out = []
    for n, day in enumerate(sorted(days)):
        out.append(
            penalty_for(section, earlier_offences(s, person_id, section, day) + n + 1, profile)
        )
    return tuple(out)


def quote(
    db: Database, person_id: int, section: str, days: tuple[date, ...], profile: Profile
) -> tuple[Penalty, ...]:
    """What citing these days would cost (the form shows it before issuing)."""
    with db.read() as s:
        return penalties(s, person_id, section, days, profile)


def local_today(profile: Profile) -> date:
    """Today in the jurisdiction's zone: the days on a citation are the city's days (in
    the evening its UTC date is already tomorrow)."""
    return to_local(now(), profile).date()


def _validate(inp: CitationInput, profile: Profile) -> Collector:
    c = Collector()
    c.check(inp.person_id is not None, "person_id", "Choose the person cited.")
    c.check(
        inp.section in rules.citable_sections(profile),
        "section",
        "Choose the ordinance section violated.",
    )
    if not inp.days:
        c.add("days", "Give the date of each day of the violation.")
    today = local_today(profile)
    for n, day in enumerate(inp.days):
        if not v.day(c, "days", day, f"Day {n + 1}") or day is None:
            c.add("days", f"Day {n + 1} is not a date.")
        elif day > today:
            c.add("days", "A violation cannot be cited for a day still to come.")
    if len(set(inp.days)) != len(inp.days):
        c.add("days", "Each day is one offence: a day is listed twice.")
    v.required(c, "issued_by", v.clean(inp.issued_by), "The issuing officer", 200)
    v.optional_len(c, "address", v.clean(inp.address), "The address", 300)
    v.optional_len(c, "description", (inp.description or "").strip(), "The description", 4000)
    court_ok = v.day(c, "court_on", inp.court_on, "The court date")
    if court_ok and inp.court_on and inp.days and inp.court_on < max(inp.days):
        c.add("court_on", "The court date cannot be before the violation.")
    return c


@requires(Permission.CALLS)
def cite(
    db: Database, actor: Actor, inp: CitationInput, profile: Profile
) -> tuple[CitationView, ...]:
    """Issue a citation for each day of the violation, each priced from the ladder."""
    c = _validate(inp, profile)
    c.raise_if_any()
    assert inp.person_id is not None
    with db.write() as s:
        if not v.row_id_fits(inp.person_id) or s.get(Person, inp.person_id) is None:
            raise NotFoundError(f"There is no person #{inp.person_id}.")
        if inp.call_id is not None and (
            not v.row_id_fits(inp.call_id) or s.get(FieldCall, inp.call_id) is None
        ):
            raise NotFoundError(f"There is no call #{inp.call_id}.")
        taken = {
            day: voided is not None
            for day, voided in s.execute(
                select(CallCitation.offence_on, CallCitation.voided_at).where(
                    CallCitation.person_id == inp.person_id,
                    CallCitation.section == inp.section,
                    CallCitation.offence_on.in_(inp.days),
                )
            )
        }
        if taken:
            c.add(
                "days",
                "Already cited for this section on "
                + ", ".join(
                    d.isoformat() + (" (voided)" if taken[d] else "") for d in sorted(taken)
                )
                + ": one offence a day, and a voided citation keeps its day on record.",
            )
            c.raise_if_any()
        # Later days already cited move up one step for each day added before them: the
        # ladder is counted by day, so refuse a back-dated citation that would reprice them.
        later = s.scalar(
            select(func.count())
            .select_from(CallCitation)
            .where(
                CallCitation.person_id == inp.person_id,
                CallCitation.section == inp.section,
                CallCitation.offence_on > min(inp.days),
                CallCitation.voided_at.is_(None),
            )
        )
        if later:
            c.add(
                "days",
                "The person has a later citation for this section; a day before it would "
                "change the offence numbers already issued. Cite it on its own record.",
            )
            c.raise_if_any()
        out = []
        days = tuple(sorted(inp.days))
        for day, p in zip(
            days, penalties(s, inp.person_id, inp.section, days, profile), strict=True
        ):
            row = CallCitation(
                call_id=inp.call_id,
                person_id=inp.person_id,
                section=inp.section,
                offence_on=day,
                offence_number=p.offence_number,
                forfeiture=p.forfeiture,
                warning=p.warning,
                plus_court_costs=p.plus_court_costs,
                penalty_why=p.why,
                address=v.clean(inp.address),
                address_key=rules.address_key(inp.address),
                description=(inp.description or "").strip(),
                court_on=inp.court_on,
                issued_by=v.clean(inp.issued_by),
                issued_at=now(),
                recorded_by=actor.username,
            )
            s.add(row)
            s.flush()
            audit(s, actor, "cite", ENTITY, row.id, after=snapshot(row, FIELDS))
            out.append(citation_view(s, row))
        return tuple(out)


@requires(Permission.CALLS)
def update_citation(
    db: Database,
    actor: Actor,
    citation_id: int,
    version: int,
    *,
    court_on: date | None,
    paid_on: date | None,
    profile: Profile | None = None,
) -> CitationView:
    """Record the court date, and the day the forfeiture was paid (None: not paid).

    ``profile``: the jurisdiction whose days these are (the default's if None)."""
    c = Collector()
    v.day(c, "court_on", court_on, "The court date")
    if (
        v.day(c, "paid_on", paid_on, "The day paid")
        and paid_on
        and paid_on > local_today(profile or Profile.default())
    ):
        c.add("paid_on", "A payment cannot be recorded for a day still to come.")
    c.raise_if_any()
    with db.write() as s:
        require_row_id(CallCitation, citation_id)
        row = s.get(CallCitation, citation_id, with_for_update=True)
        if row is None:
            raise NotFoundError(f"There is no citation #{citation_id}.")
        if row.version != version:
            raise StaleRecordError(
                f"Citation #{citation_id} was changed by someone else: reopen it."
            )
        if row.voided_at is not None:
            raise UserError(f"Citation #{citation_id} is void: nothing more is recorded on it.")
        if paid_on is not None and row.forfeiture is None:
            raise ValidationError({"paid_on": "A warning has no forfeiture to pay."})
        if paid_on is not None and paid_on < row.offence_on:
            raise ValidationError(
                {
                    "paid_on": "A forfeiture cannot be paid before the day of its offence, "
                    f"{format_day(row.offence_on)}."
                }
            )
        if court_on is not None and court_on < row.offence_on:
            raise ValidationError({"court_on": "The court date cannot be before the violation."})
        before = snapshot(row, ("court_on", "paid_on"))
        row.court_on = court_on
        row.paid_on = paid_on
        was, became = changed_only(before, snapshot(row, ("court_on", "paid_on")))
        if became:
            s.flush()
            audit(s, actor, "update_citation", ENTITY, row.id, before=was, after=became)
        return citation_view(s, row)


def citations_of(db: Database, person_id: int) -> tuple[CitationView, ...]:
    """Every citation of a person, newest offence first."""
    with db.read() as s:
        rows = s.scalars(
            select(CallCitation)
            .where(CallCitation.person_id == person_id)
            .order_by(CallCitation.offence_on.desc(), CallCitation.id.desc())
        )
        return tuple(citation_view(s, r) for r in rows)


def citation_call(db: Database, citation_id: int) -> int | None:
    """The call a citation was issued on (None: issued on its own); NotFoundError if none."""
    with db.read() as s:
        require_row_id(CallCitation, citation_id)
        row = s.get(CallCitation, citation_id)
        if row is None:
            raise NotFoundError(f"There is no citation #{citation_id}.")
        return row.call_id
