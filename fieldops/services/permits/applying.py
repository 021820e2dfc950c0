"""Applying for, renewing and issuing a permit (58-533(a),(b)).

An application is checked by the rules (``chicken_permit_problems``) and its fees quoted
(``permit_quote``). One that fails the rules is refused: by default the service says
why beside each field and saves nothing; with ``refuse=True`` (the clerk confirms the
refusal) it records the refused application, the problems with it, as the city's record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Permit, PermitAnimalList, PermitApplication, Person
from fieldops.errors import Collector, ValidationError
from fieldops.permissions import Permission, requires
from fieldops.rules import (
    Profile,
    chicken_permit_problems,
    chickens_missing,
    fancier_list_update_due,
    format_day,
    permit_quote,
)
from fieldops.services import validate as v
from fieldops.services.context import Actor, audit, existing_save, jsonable, now, remember_save
from fieldops.services.permits.records import (
    build_view,
    change_summary,
    load,
    local_today,
    refuse_unless,
    search_text,
)
from fieldops.services.permits.renewal_bars import banned_until, chicken_decision, may_renew
from fieldops.services.permits.views import AnimalLine, PermitView

MAX_COUNT = 10_000  # more animals, or feet, than any form is typed with: a typing slip
ADDRESS = Permit.__table__.c.address


@dataclass(frozen=True)
class ChickenInput:
    """The chicken permit form: an application for a year (58-533(b))."""

    applied_on: date | None
    year: int | None
    hens: int | None
    roosters: int | None = 0
    setback_feet: int | None = None
    neighbour_consent: bool = False
    hoa_exists: bool = False
    hoa_consent: bool = False
    hoa_consent_on: date | None = None  # the day of the association's written consent
    notes: str = ""
    # asked only when the profile sets them (village ch. 12 (d), (i))
    residence_setback_feet: int | None = None  # from a neighbouring residence
    state_registered_on: date | None = None  # the state premises registration's day


@dataclass(frozen=True)
class FancierInput:
    """The animal fancier's permit form: an application with the list of animals."""

    applied_on: date | None
    year: int | None
    animals: tuple[AnimalLine, ...] = field(default_factory=tuple)
    notes: str = ""


def _count(c: Collector, name: str, value: object, label: str, *, required: bool) -> int:
    if value is None and not required:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        c.add(name, f"{label} must be a whole number.")
        return 0
    if value < 0 or value > MAX_COUNT:
        c.add(name, f"{label} must be between 0 and {MAX_COUNT:,}.")
        return 0
    return value


def _common(
    c: Collector, applied_on: date | None, year: int | None, notes: str, profile: Profile
) -> None:
    if applied_on is None:
        c.add("applied_on", "The application date is required.")
    elif v.day(c, "applied_on", applied_on, "The application date"):
        v.not_future(c, "applied_on", applied_on, "The application date", local_today(profile))
    if isinstance(year, bool) or not isinstance(year, int):
        c.add("year", "The permit year is required.")
    elif isinstance(applied_on, date) and not applied_on.year <= year <= applied_on.year + 1:
        c.add("year", "The permit year must be the application's year or the next one.")
    v.optional_len(c, "notes", (notes or "").strip(), "Notes", 4000)


def check_chicken(
    inp: ChickenInput, profile: Profile, *, first: bool
) -> tuple[dict[str, str], int, int, int]:
    """Field errors (the form's mistakes, never a refusal), and the counts as numbers."""
    c = Collector()
    _common(c, inp.applied_on, inp.year, inp.notes, profile)
    hens = _count(c, "hens", inp.hens, "The number of hens", required=True)
    roosters = _count(c, "roosters", inp.roosters, "The number of roosters", required=False)
    setback = _count(c, "setback_feet", inp.setback_feet, "The enclosure's setback", required=True)
    # An application for no chickens is a slip (Enter pressed in the address), not an
    # application: recorded, it could not be withdrawn and would block the real one. (A
    # count already refused above keeps its own message: the first one stays.)
    if missing := chickens_missing(profile, hens=hens, roosters=roosters):
        c.add("hens", missing)
    rules = profile.chickens
    if rules.residence_setback_feet is not None:
        _count(
            c,
            "residence_setback_feet",
            inp.residence_setback_feet,
            "The distance from a neighbouring residence",
            required=True,
        )
    if rules.state_registration_years is not None:
        if inp.state_registered_on is None:
            c.add("state_registered_on", "Give the date of the state premises registration.")
        elif v.day(c, "state_registered_on", inp.state_registered_on, "The registration's date"):
            v.not_future(
                c,
                "state_registered_on",
                inp.state_registered_on,
                "The registration's date",
                local_today(profile),
            )
    if first and inp.hoa_exists and inp.hoa_consent:
        if inp.hoa_consent_on is None:
            c.add("hoa_consent_on", "Give the date of the association's written consent.")
        elif v.day(c, "hoa_consent_on", inp.hoa_consent_on, "The consent's date"):
            v.not_future(
                c, "hoa_consent_on", inp.hoa_consent_on, "The consent's date", local_today(profile)
            )
    try:
        c.raise_if_any()
    except ValidationError as e:
        return e.by_field(), hens, roosters, setback
    return {}, hens, roosters, setback


def _asked(inp: ChickenInput, profile: Profile) -> dict[str, Any]:
    """The answers the profile asks beyond the city's form, for the rules and the record."""
    rules = profile.chickens
    out: dict[str, Any] = {}
    if rules.residence_setback_feet is not None:
        out["residence_setback_feet"] = inp.residence_setback_feet
    if rules.state_registration_years is not None:
        out["state_registered_on"] = inp.state_registered_on
        out["applied_on"] = inp.applied_on
    return out


def chicken_problems(inp: ChickenInput, profile: Profile, *, first: bool) -> dict[str, str]:
    """What the rules refuse in this application, by form field ({} when it may be issued).

    The form calls this as the clerk types; the service calls it again when saving. A
    field with a mistake of its own (``check_chicken``) is left out: the rest are checked."""
    errors, hens, roosters, setback = check_chicken(inp, profile, first=first)
    out: dict[str, str] = {}
    for p in chicken_permit_problems(
        profile,
        first_permit=first,
        hoa_exists=inp.hoa_exists,
        hoa_consent=inp.hoa_consent,
        hens=hens,
        roosters=roosters,
        setback_feet=setback,
        neighbour_consent=inp.neighbour_consent,
        **_asked(inp, profile),
    ):
        if p.field not in errors:  # a field still mistyped is the form's to say, not a refusal
            out.setdefault(p.field, p.message)
    return out


def _application(
    s: Session,
    actor: Actor,
    permit: Permit,
    kind: str,
    *,
    first: bool,
    applied_on: date,
    year: int,
    profile: Profile,
    problems: list[dict[str, str]],
    notes: str,
    chicken: ChickenInput | None = None,
) -> PermitApplication:
    quote = permit_quote(kind, year, applied_on, profile, first=first)
    a = PermitApplication(
        permit_id=permit.id,
        first=first,
        year=year,
        applied_on=applied_on,
        application_fee=quote.application_fee,
        annual_fee=quote.annual_fee,
        late_fee=quote.late_fee,
        total=quote.total,
        late=quote.late,
        due_by=quote.due_by,
        fee_why={str(k): str(w) for k, w in quote.why.items()},
        refused=bool(problems),
        problems=problems,
        notes=(notes or "").strip(),
        recorded_by=actor.username,
        recorded_at=now(),
    )
    if chicken is not None:
        a.hoa_exists = chicken.hoa_exists
        a.hoa_consent = chicken.hoa_consent if chicken.hoa_exists else None
        a.hoa_consent_on = (
            chicken.hoa_consent_on if chicken.hoa_exists and chicken.hoa_consent else None
        )
        a.hens = chicken.hens
        a.roosters = chicken.roosters or 0
        a.setback_feet = chicken.setback_feet
        a.neighbour_consent = chicken.neighbour_consent
        asked = _asked(chicken, profile)
        a.residence_setback_feet = asked.get("residence_setback_feet")
        a.state_registered_on = asked.get("state_registered_on")
    s.add(a)
    s.flush()
    after = {
        "kind": kind,
        "first": first,
        "year": year,
        "applied_on": applied_on,
        "holder_id": permit.holder_id,
        "address": permit.address,
        "total": quote.total,
        "late": quote.late,
    }
    if chicken is not None:
        after |= {
            "hens": a.hens,
            "roosters": a.roosters,
            "setback_feet": a.setback_feet,
            "neighbour_consent": a.neighbour_consent,
            "hoa_exists": a.hoa_exists,
            "hoa_consent": a.hoa_consent,
            "hoa_consent_on": a.hoa_consent_on,
        }
        after |= {k: w for k, w in _asked(chicken, profile).items() if k != "applied_on"}
    if problems:
        after["problems"] = [p["message"] for p in problems]
    audit(
        s,
        actor,
        "permit_refused" if problems else "permit_applied",
        "permit",
        permit.id,
        after=jsonable(after | {"application": a.id}),
    )
    return a


def _problem_rows(
    problems: dict[str, str], inp: ChickenInput, profile: Profile, first: bool
) -> list[dict[str, str]]:
    rows = []
    for p in chicken_permit_problems(
        profile,
        first_permit=first,
        hoa_exists=inp.hoa_exists,
        hoa_consent=inp.hoa_consent,
        hens=inp.hens or 0,
        roosters=inp.roosters or 0,
        setback_feet=inp.setback_feet or 0,
        neighbour_consent=inp.neighbour_consent,
        **_asked(inp, profile),
    ):
        rows.append({"code": p.code, "field": p.field, "message": p.message})
    return rows if problems else []


def _check_chicken_or_raise(
    inp: ChickenInput, profile: Profile, first: bool, refuse: bool
) -> list[dict[str, str]]:
    errors, *_ = check_chicken(inp, profile, first=first)
    if errors:
        raise ValidationError(errors)
    problems = chicken_problems(inp, profile, first=first)
    if problems and not refuse:
        raise ValidationError(problems)
    if refuse and not problems:
        raise ValidationError(
            {"refuse": "The application meets the rules: there is nothing to refuse it for."}
        )
    return _problem_rows(problems, inp, profile, first)


def _holder(s: Session, holder_id: int | None) -> Person:
    holder = v.row(s, Person, holder_id)
    if holder is None or holder.archived_at is not None:
        raise ValidationError({"holder_id": "Choose the applicant from the people on record."})
    return holder


def _new_permit(s: Session, kind: str, holder: Person, address: str, year: int) -> Permit:
    open_ = s.scalar(
        select(Permit.id).where(
            Permit.kind == kind,
            Permit.holder_id == holder.id,
            Permit.address == address,
            Permit.status.in_(("applied", "issued", "appeal_pending")),
        )
    )
    if open_ is not None:
        raise ValidationError(
            {
                "holder_id": f"{holder.full_name} already has permit #{open_} of this kind at "
                "this address: renew that one."
            }
        )
    permit = Permit(
        kind=kind,
        holder_id=holder.id,
        address=address,
        status="applied",
        year=year,
        search_text=search_text(holder, address),
    )
    s.add(permit)
    s.flush()
    return permit


@requires(Permission.RECORDS)
def apply_chicken(
    db: Database,
    actor: Actor,
    holder_id: int | None,
    address: str,
    inp: ChickenInput,
    profile: Profile,
    *,
    first: bool = True,
    refuse: bool = False,
    client_key: str | None = None,
) -> PermitView:
    """A new chicken permit's application: applied (to issue once paid), or refused."""
    addr = v.clean(address)
    c = Collector()
    c.check(holder_id is not None, "holder_id", "Choose the applicant from the people on record.")
    v.required(c, "address", addr, "The address", ADDRESS)
    c.raise_if_any()
    problems = _check_chicken_or_raise(inp, profile, first, refuse)
    assert inp.applied_on is not None and inp.year is not None
    with db.write() as s:
        if (done := existing_save(s, client_key, "permit", actor)) is not None:
            return build_view(s, load(s, done), profile)  # a retry: already recorded
        holder = _holder(s, holder_id)
        banned = banned_until(s, holder, inp.applied_on)
        if banned is not None:
            raise ValidationError(
                {
                    "holder_id": f"A chicken permit of {holder.full_name} was not renewed: they "
                    f"may not apply again, at any address, until {format_day(banned)} "
                    f"({profile.chickens.source})."
                }
            )
        permit = _new_permit(s, "chicken", holder, addr, inp.year)
        _application(
            s,
            actor,
            permit,
            "chicken",
            first=first,
            applied_on=inp.applied_on,
            year=inp.year,
            profile=profile,
            problems=problems,
            notes=inp.notes,
            chicken=inp,
        )
        if problems:
            change_summary(s, actor, permit, "application refused", status="refused")
        remember_save(s, client_key, "permit", permit.id, actor)
        return build_view(s, permit, profile)


@requires(Permission.RECORDS)
def renew_chicken(
    db: Database,
    actor: Actor,
    permit_id: int,
    inp: ChickenInput,
    profile: Profile,
    *,
    version: int | None = None,
    refuse: bool = False,
    client_key: str | None = None,
) -> PermitView:
    """The annual renewal's application (no association consent needed again), refused
    when the profile's renewal test (``chicken_renewal``, on the day applied) says the
    permit is not renewed."""
    problems = _check_chicken_or_raise(inp, profile, False, refuse)
    assert inp.applied_on is not None and inp.year is not None
    with db.write() as s:
        if (done := existing_save(s, client_key, "permit_action", actor)) is not None:
            return build_view(s, load(s, done), profile)
        permit = load(s, permit_id, lock=True, version=version)
        may_renew(s, permit, "chicken", inp.year)
        decision, _ids = chicken_decision(s, permit, inp.applied_on, profile)
        refuse_unless(
            decision.renew,
            "permit",
            f"{decision.why} Record the review of the incidents to put the non-renewal on record.",
        )
        _application(
            s,
            actor,
            permit,
            "chicken",
            first=False,
            applied_on=inp.applied_on,
            year=inp.year,
            profile=profile,
            problems=problems,
            notes=inp.notes,
            chicken=inp,
        )
        remember_save(s, client_key, "permit_action", permit.id, actor)
        return build_view(s, permit, profile)


def _animals(c: Collector, animals: tuple[AnimalLine, ...]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    if not animals:
        c.add("animals", "List the animals kept (species and number).")
    for n, a in enumerate(animals, 1):
        species = v.clean(a.species)
        if not species:
            c.add("animals", f"Line {n}: the species is required.")
        elif len(species) > 60:
            c.add("animals", f"Line {n}: the species is at most 60 characters.")
        count = _count(c, "animals", a.count, f"Line {n}: the number", required=True)
        if count == 0 and species:
            c.add("animals", f"Line {n}: the number must be at least 1.")
        names = v.clean(a.names)
        if len(names) > 400:
            c.add("animals", f"Line {n}: the names are at most 400 characters.")
        out.append({"species": species, "count": count, "names": names})
    return out


@requires(Permission.RECORDS)
def apply_fancier(
    db: Database,
    actor: Actor,
    holder_id: int | None,
    address: str,
    inp: FancierInput,
    profile: Profile,
    *,
    first: bool = True,
    client_key: str | None = None,
) -> PermitView:
    """A new animal fancier's permit's application, with its list of animals."""
    addr = v.clean(address)
    c = Collector()
    c.check(holder_id is not None, "holder_id", "Choose the applicant from the people on record.")
    v.required(c, "address", addr, "The address", ADDRESS)
    _common(c, inp.applied_on, inp.year, inp.notes, profile)
    animals = _animals(c, inp.animals)
    c.raise_if_any()
    assert inp.applied_on is not None and inp.year is not None
    with db.write() as s:
        if (done := existing_save(s, client_key, "permit", actor)) is not None:
            return build_view(s, load(s, done), profile)
        permit = _new_permit(s, "fancier", _holder(s, holder_id), addr, inp.year)
        _application(
            s,
            actor,
            permit,
            "fancier",
            first=first,
            applied_on=inp.applied_on,
            year=inp.year,
            profile=profile,
            problems=[],
            notes=inp.notes,
        )
        s.add(
            PermitAnimalList(
                permit_id=permit.id,
                kind="update",
                changed_on=inp.applied_on,
                updated_on=inp.applied_on,
                due_by=fancier_list_update_due(inp.applied_on, profile),
                animals=animals,
                note="The list given with the application.",
                recorded_by=actor.username,
                recorded_at=now(),
            )
        )
        remember_save(s, client_key, "permit", permit.id, actor)
        return build_view(s, permit, profile)


@requires(Permission.RECORDS)
def renew_fancier(
    db: Database,
    actor: Actor,
    permit_id: int,
    applied_on: date | None,
    year: int | None,
    profile: Profile,
    *,
    version: int | None = None,
    client_key: str | None = None,
) -> PermitView:
    """The annual renewal's application: only after the review decided to renew."""
    c = Collector()
    _common(c, applied_on, year, "", profile)
    c.raise_if_any()
    assert applied_on is not None and year is not None
    from fieldops.db.models import PermitReview

    with db.write() as s:
        if (done := existing_save(s, client_key, "permit_action", actor)) is not None:
            return build_view(s, load(s, done), profile)
        permit = load(s, permit_id, lock=True, version=version)
        may_renew(s, permit, "fancier", year)
        # Only a review of the year in force counts: one dated before its issue is not.
        since = permit.issued_on or date.min
        review = s.scalar(
            select(PermitReview)
            .where(
                PermitReview.permit_id == permit.id,
                PermitReview.year == permit.year,
                PermitReview.review_day >= since,
            )
            .order_by(PermitReview.id.desc())
            .limit(1)
        )
        refuse_unless(
            review is not None and review.renew,
            "review",
            f"Review the incidents of {permit.year} before the permit is renewed (58-533(a)).",
        )
        _application(
            s,
            actor,
            permit,
            "fancier",
            first=False,
            applied_on=applied_on,
            year=year,
            profile=profile,
            problems=[],
            notes="",
        )
        remember_save(s, client_key, "permit_action", permit.id, actor)
        return build_view(s, permit, profile)
