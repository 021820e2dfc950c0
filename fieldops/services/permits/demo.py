"""Demo permits in every state, relative to the anchor day, through the services.

Chicken permits: applied (to issue), issued this year, renewed from last year, expired
and not renewed, refused (the rules' problems, e.g. no association consent), revoked
for a violation. Fancier's permits: issued with an animal change whose list is overdue,
not renewed after three incidents with the notice mailed and the appeal window open,
appeal pending (enforcement stayed), appeal decided (upheld).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from fieldops.modules import Demo
from fieldops.permissions import Permission, has_permission
from fieldops.services.permits.records import local_today

if TYPE_CHECKING:
    from fieldops.services.permits.views import PermitView

SPECIES = (("pigeons", "Racing homers"), ("rabbits", ""), ("ferrets", "Bandit, Pip"), ("cats", ""))
INCIDENTS = (
    ("noise", "citation", "Pigeons loose and calling at dawn; neighbour complaint."),
    ("at_large", "warning", "Two rabbits found in the neighbour's garden."),
    ("waste", "citation", "Droppings piled against the fence line."),
    ("attack", "warning", "A ferret bit a visiting dog on the nose."),
)


def permits(d: Demo) -> int:
    from fieldops.services.permits.animal_list import note_animal_change
    from fieldops.services.permits.appeals import decide_appeal, file_appeal, mail_notice
    from fieldops.services.permits.applying import (
        ChickenInput,
        FancierInput,
        apply_chicken,
        apply_fancier,
        renew_chicken,
    )
    from fieldops.services.permits.enforcing import (
        IncidentInput,
        record_incident,
        review_permit,
        revoke_chicken,
    )
    from fieldops.services.permits.issuing import issue_permit
    from fieldops.services.permits.views import AnimalLine

    people = [p for p in d.people if p.address]
    if len(people) < 12:
        return 0
    with d.db.read() as s:
        if not (
            has_permission(s, d.actor, Permission.RECORDS)
            and has_permission(s, d.actor, Permission.NOTICES)
        ):
            return 0
    db, actor, p, rng = d.db, d.actor, d.profile, d.rng
    today = min(d.anchor, local_today(p))
    year = today.year
    last = date(year - 1, 3, 1) + timedelta(days=rng.randint(0, 60))
    rules = p.chickens
    hens = min(rules.hens_max or 4, 4)
    setback = max(rules.setback_feet or 0, 60)
    pool = people[-12:]
    written = 0

    def hens_ok(day: date, y: int, **kw: object) -> ChickenInput:
        # the village's and Dodgeville's extra questions; ignored where not asked
        asked = {"residence_setback_feet": 80, "state_registered_on": day - timedelta(days=400)}
        return ChickenInput(day, y, hens, 0, setback, **(asked | kw))  # type: ignore[arg-type]

    def chicken(i: int, day: date, y: int) -> PermitView:
        nonlocal written
        written += 1
        return apply_chicken(db, actor, pool[i].id, pool[i].address, hens_ok(day, y), p)

    # Applied, to issue.
    chicken(0, today, year)
    # Issued this year.
    v = chicken(1, today - timedelta(days=min(20, today.timetuple().tm_yday - 1)), year)
    issue_permit(db, actor, v.id, v.application.applied_on if v.application else today, p)
    # Renewed: issued last year, renewed this year.
    v = chicken(2, last, year - 1)
    issue_permit(db, actor, v.id, last, p)
    renew_on = min(today, date(year, 1, 20))
    v = renew_chicken(db, actor, v.id, hens_ok(renew_on, year), p)
    issue_permit(db, actor, v.id, renew_on, p)
    # Expired and not renewed.
    v = chicken(3, last, year - 1)
    issue_permit(db, actor, v.id, last, p)
    # Refused: no association consent (and whatever else the profile refuses).
    bad = ChickenInput(
        today,
        year,
        (rules.hens_max or 4) + 2,
        1,
        max((rules.setback_feet or 10) - 10, 0),
        hoa_exists=True,
        hoa_consent=False,
        notes="Applied at the counter.",
        residence_setback_feet=80,
        state_registered_on=today - timedelta(days=400),
    )
    from fieldops.services.permits.applying import chicken_problems

    if chicken_problems(bad, p, first=True):
        apply_chicken(db, actor, pool[4].id, pool[4].address, bad, p, refuse=True)
        written += 1
    # Revoked for a violation.
    v = chicken(5, last, year - 1)
    issue_permit(db, actor, v.id, last, p)
    revoke_chicken(
        db,
        actor,
        v.id,
        last + timedelta(days=90),
        "Hens kept loose in the front yard after two written warnings.",
        p,
    )

    def fancier(i: int) -> PermitView:
        nonlocal written
        written += 1
        animals = tuple(
            AnimalLine(sp, rng.randint(2, 12), names) for sp, names in rng.sample(SPECIES, 2)
        )
        v = apply_fancier(
            db, actor, pool[i].id, pool[i].address, FancierInput(last, year - 1, animals), p
        )
        return issue_permit(db, actor, v.id, last, p)

    # Issued, with a change in the animals whose list update is overdue.
    v = fancier(6)
    note_animal_change(
        db, actor, v.id, today - timedelta(days=45), "A litter of six rabbits born.", p
    )

    def three_incidents(pid: int, review_day: date) -> None:
        for n, (kind, ending, what) in enumerate(INCIDENTS[:3]):
            num = f"C-{review_day.year}-{pid:03d}{n}" if ending == "citation" else ""
            record_incident(
                db,
                actor,
                pid,
                IncidentInput(review_day - timedelta(days=30 + 70 * n), kind, ending, what, num),
                p,
            )

    def not_renewed(i: int, days_ago: int, older: bool = False) -> PermitView:
        v = fancier(i)
        review_day = today - timedelta(days=days_ago)
        three_incidents(v.id, review_day)
        if older:  # one more, outside the 12 months: on record, not counted
            record_incident(
                db, actor, v.id, IncidentInput(review_day - timedelta(days=400), *INCIDENTS[3]), p
            )
        return review_permit(db, actor, v.id, review_day, p, notes="Annual review.")

    # Not renewed, the notice mailed: the appeal window is open.
    v = not_renewed(7, 6)
    mail_notice(db, actor, v.id, today - timedelta(days=5), "7019 0700 0000 1234 5678", p)
    # Appeal pending: enforcement stayed.
    v = not_renewed(8, 20, older=True)
    mail_notice(db, actor, v.id, today - timedelta(days=19), "7019 0700 0000 2345 6789", p)
    file_appeal(db, actor, v.id, today - timedelta(days=10), "The noise was another house's.", p)
    # Appeal decided: upheld.
    v = not_renewed(9, 60)
    mail_notice(db, actor, v.id, today - timedelta(days=58), "7019 0700 0000 3456 7890", p)
    file_appeal(db, actor, v.id, today - timedelta(days=50), "Disputes the citations.", p)
    decide_appeal(
        db,
        actor,
        v.id,
        today - timedelta(days=30),
        "upheld",
        "Board of appeals",
        p,
        reason="The citations stand.",
    )
    # Decided, notice still to mail.
    not_renewed(10, 2)
    return written
