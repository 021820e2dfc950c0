"""A citation voided or corrected (58-534(b)): nothing silently changed.

A supervisor voids a citation with a reason: it stays on record, marked void, and
no longer counts as an earlier offence on any ladder nor shows as unpaid. A
citation's mistakes (the section, the day of the offence, the person cited, the
description, the place) are corrected with a reason; the forfeiture is asked of
the rules again (``penalties``), and the audit keeps what was and what became.

Who may correct what: the description and the place of any citation, any officer;
the section, the day or the person (what the ladder counts) a supervisor, or the
officer who recorded that citation. Neither a void nor a correction may change the
offence number another citation was issued with (a later one of the same person
and section): those are issued legal records; void or correct the later one first.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import CallCitation, Person
from fieldops.errors import (
    Collector,
    NotFoundError,
    PermissionDeniedError,
    StaleRecordError,
    UserError,
    ValidationError,
)
from fieldops.permissions import Permission, has_permission, requires
from fieldops.rules import Profile
from fieldops.rules import calls as rules
from fieldops.services import validate as v
from fieldops.services.calls.citations import ENTITY, earlier_offences, local_today, penalties
from fieldops.services.calls.records import citation_view
from fieldops.services.calls.views import CitationView
from fieldops.services.context import Actor, audit, changed_only, now, require_row_id, snapshot

#: What a correction may change; the first three are what the ladder counts.
LADDER_FIELDS = ("person_id", "section", "offence_on")
TEXT_FIELDS = ("address", "description")
PRICE_FIELDS = ("offence_number", "forfeiture", "warning", "plus_court_costs", "penalty_why")
AUDITED = (*LADDER_FIELDS, *TEXT_FIELDS, "address_key", *PRICE_FIELDS)


@dataclass(frozen=True)
class CitationCorrection:
    """The citation as it should have been written."""

    person_id: int | None
    section: str
    offence_on: date | None
    address: str = ""
    description: str = ""


def _load(s: Session, citation_id: int, version: int) -> CallCitation:
    require_row_id(CallCitation, citation_id)
    row = s.get(CallCitation, citation_id, with_for_update=True)
    if row is None:
        raise NotFoundError(f"There is no citation #{citation_id}.")
    if row.version != version:
        raise StaleRecordError(
            f"Citation #{citation_id} was changed by someone else since it was opened: "
            "reopen it to see the change; nothing was saved."
        )
    if row.voided_at is not None:
        raise UserError(f"Citation #{citation_id} is void: a voided citation is not changed.")
    return row


def _renumbered(s: Session, row: CallCitation, keys: set[tuple[int, str]]) -> list[CallCitation]:
    """Other citations (not void) of these person-and-section pairs whose offence number,
    counted again now, is not the one they were issued with."""
    out = []
    for person_id, section in sorted(keys):
        for other in s.scalars(
            select(CallCitation)
            .where(
                CallCitation.person_id == person_id,
                CallCitation.section == section,
                CallCitation.voided_at.is_(None),
                CallCitation.id != row.id,
            )
            .order_by(CallCitation.offence_on, CallCitation.id)
        ):
            count = earlier_offences(s, person_id, section, other.offence_on) + 1
            if count != other.offence_number:
                out.append(other)
    return out


def _later_words(rows: list[CallCitation]) -> str:
    return ", ".join(f"#{r.id} ({r.offence_on.isoformat()})" for r in rows)


@requires(Permission.CORRECTIONS)
def void_citation(
    db: Database, actor: Actor, citation_id: int, version: int, reason: str
) -> CitationView:
    """Void a citation (a supervisor), with a reason; the row stays, marked void."""
    c = Collector()
    v.required(c, "reason", v.clean(reason), "The reason for voiding", 2000)
    c.raise_if_any()
    with db.write() as s:
        row = _load(s, citation_id, version)
        keys = {(row.person_id, row.section)}
        row.voided_at = now()
        row.voided_by = actor.username
        row.void_reason = v.clean(reason)
        s.flush()
        later = _renumbered(s, row, keys)
        if later:
            raise ValidationError(
                {
                    "reason": "Later citations of this person under this section count "
                    f"this one as an earlier offence: {_later_words(later)}. Void or correct "
                    "them first; nothing was voided."
                }
            )
        audit(
            s,
            actor,
            "void_citation",
            ENTITY,
            row.id,
            before={"voided_at": None},
            after={"voided_at": row.voided_at.isoformat(), "voided_by": actor.username},
            reason=row.void_reason,
        )
        return citation_view(s, row)


def _validate(
    s: Session, inp: CitationCorrection, row: CallCitation, reason: str, profile: Profile
) -> Collector:
    c = Collector()
    if inp.person_id is None:
        c.add("person_id", "Choose the person cited.")
    elif not v.row_id_fits(inp.person_id) or s.get(Person, inp.person_id) is None:
        c.add("person_id", f"There is no person #{inp.person_id} in the registry.")
    c.check(
        inp.section in rules.citable_sections(profile),
        "section",
        "Choose the ordinance section violated.",
    )
    if inp.offence_on is None:
        c.add("offence_on", "The day of the offence is required.")
    elif v.day(c, "offence_on", inp.offence_on, "The day of the offence"):
        if inp.offence_on > local_today(profile):
            c.add("offence_on", "A violation cannot be cited for a day still to come.")
        elif row.court_on is not None and row.court_on < inp.offence_on:
            c.add("offence_on", "The day of the offence cannot be after the court date.")
        elif row.paid_on is not None and row.paid_on < inp.offence_on:
            c.add("offence_on", "The day of the offence cannot be after the day it was paid.")
    v.optional_len(c, "address", v.clean(inp.address), "The address", 300)
    v.optional_len(c, "description", (inp.description or "").strip(), "The description", 4000)
    return c


@requires(Permission.CALLS)
def correct_citation(
    db: Database,
    actor: Actor,
    citation_id: int,
    version: int,
    corrected: CitationCorrection,
    reason: str,
    profile: Profile,
) -> CitationView:
    """Correct a citation's mistakes with a reason; the forfeiture follows the rules again.
    A save that changes nothing writes nothing and returns the citation as it is."""
    with db.write() as s:
        row = _load(s, citation_id, version)
        c = _validate(s, corrected, row, reason, profile)
        c.raise_if_any()
        assert corrected.person_id is not None and corrected.offence_on is not None
        new = {
            "person_id": corrected.person_id,
            "section": corrected.section,
            "offence_on": corrected.offence_on,
            "address": v.clean(corrected.address),
            "description": (corrected.description or "").strip(),
        }
        changed = [k for k, val in new.items() if getattr(row, k) != val]
        if not changed:
            return citation_view(s, row)
        v.required(c, "reason", v.clean(reason), "The reason for the correction", 2000)
        c.raise_if_any()
        ladder = [k for k in changed if k in LADDER_FIELDS]
        if (
            ladder
            and row.recorded_by != actor.username
            and not has_permission(s, actor, Permission.CORRECTIONS)
        ):
            raise PermissionDeniedError(
                "Correcting the person, the section or the day of a citation another officer "
                f"recorded needs a supervisor; {actor.username} may correct its description "
                "and place."
            )
        if ladder:
            clash = s.scalar(
                select(CallCitation).where(
                    CallCitation.person_id == new["person_id"],
                    CallCitation.section == new["section"],
                    CallCitation.offence_on == new["offence_on"],
                    CallCitation.id != row.id,
                )
            )
            if clash is not None:
                void = " (voided)" if clash.voided_at is not None else ""
                raise ValidationError(
                    {
                        "offence_on": f"Citation #{clash.id}{void} is already for this person, "
                        "section and day: one offence a day."
                    }
                )
        before = snapshot(row, AUDITED)
        keys = {(row.person_id, row.section), (corrected.person_id, corrected.section)}
        with s.no_autoflush:  # one UPDATE (one version) for the whole correction
            for k, val in new.items():
                setattr(row, k, val)
            row.address_key = rules.address_key(row.address)
        if ladder:
            s.flush()  # the ladder below counts the citation where it now stands
            (p,) = penalties(s, row.person_id, row.section, (row.offence_on,), profile)
            if row.paid_on is not None and p.forfeiture != row.forfeiture:
                raise ValidationError(
                    {
                        "section": f"Citation #{row.id} was paid on {row.paid_on.isoformat()}; "
                        "this correction changes its forfeiture. Record the payment as not paid "
                        "first; nothing was corrected."
                    }
                )
            row.offence_number = p.offence_number
            row.forfeiture = p.forfeiture
            row.warning = p.warning
            row.plus_court_costs = p.plus_court_costs
            row.penalty_why = p.why
            s.flush()
            later = _renumbered(s, row, keys)
            if later:
                raise ValidationError(
                    {
                        "offence_on": "This correction would change the offence number of "
                        f"citations already issued: {_later_words(later)}. Correct or void "
                        "them first; nothing was corrected."
                    }
                )
        was, became = changed_only(before, snapshot(row, AUDITED))
        s.flush()
        audit(
            s,
            actor,
            "correct_citation",
            ENTITY,
            row.id,
            before=was,
            after=became,
            reason=v.clean(reason),
        )
        return citation_view(s, row)
