"""Dog licences as a module on the seam: due items (Today's as counts), demo, checks,
the kept counts, the register.

There is no release block of its own: the pound's release already asks for a licence
(58-526(b)(1)c) and reads it here (``licence_on_record``): the dog's current licence
for the release day's year, so a licence issued at the pound counter is the release's
licence evidence, and a dog renewed early for next year is still licensed for this one
(the registry animal shows only the latest year, ``issue.record_on_animal``).
"""

from __future__ import annotations

from datetime import date
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, Select, false, func, select, text
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import Animal, DogLicence
from fieldops.later import LaterMapping, LaterSequence, later_call
from fieldops.modules import (
    TODAY_EACH_UP_TO,
    ActivitySection,
    CountedDueItem,
    Demo,
    DueItem,
    Module,
    ReportKind,
    ReportOutput,
    ReportRequest,
)
from fieldops.rules import Profile, format_day_short
from fieldops.services.licences.renewals import (
    RenewalRow,
    adult_quote,
    renewals_due,
)

KEY = "licence"

CATEGORIES = {
    f"{KEY}.late": "Dog licence not renewed: late fee due",
    f"{KEY}.lapsed": "Dog licence to renew",
    f"{KEY}.expiring": "Dog licence expires at the year's end",
}

# Licences expiring at the year's end show from this day of December.
EXPIRING_FROM = 1


def _item(cat: str, r: RenewalRow, due: date, text_: str, overdue: bool) -> DueItem:
    code = f"{KEY}.{cat}"
    return DueItem(
        module=KEY,
        kind="licence",
        record_id=r.licence_id,
        due=due,
        category=code,
        category_label=CATEGORIES[code],
        text=text_,
        overdue=overdue,
        sort_key=(list(CATEGORIES).index(code), r.owner_name.lower(), r.licence_id),
    )


def due_items(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """Last year's licences not renewed (to renew until the late-fee day, late after it),
    and, in December, this year's licences not yet renewed for the next: one item a dog."""
    items = _renewal_items(db, day, profile)
    if _expiring_shown(day):
        items += _expiring_items(db, day, profile)
    return tuple(sorted(items, key=lambda i: i.sort_key))


def _expiring_shown(day: date) -> bool:
    return day.month == 12 and day.day >= EXPIRING_FROM


def _renewal_items(db: Database, day: date, profile: Profile) -> list[DueItem]:
    """One item a dog licensed last year and not yet this year (lapsed, or late)."""
    items: list[DueItem] = []
    for r in renewals_due(db, day.year, day, profile):
        who = f"{r.animal_name} ({r.owner_name}), tag {r.last_tag} of {day.year - 1}"
        if r.late:
            items.append(
                _item(
                    "late",
                    r,
                    r.due_by,
                    f"{who}: not licensed for {day.year}; due by "
                    f"{format_day_short(r.due_by, day)}, now ${r.amount:,.2f} with the late fee",
                    True,
                )
            )
        else:
            items.append(
                _item(
                    "lapsed",
                    r,
                    r.due_by,
                    f"{who}: renew for {day.year} by {format_day_short(r.due_by, day)}"
                    f" (${r.amount:,.2f})",
                    False,
                )
            )
    return items


def _expiring_items(db: Database, day: date, profile: Profile) -> list[DueItem]:
    """One item a licence of this year not yet renewed for the next (December)."""
    end = date(day.year, 12, 31)
    return [
        _item(
            "expiring",
            r,
            end,
            f"{r.animal_name} ({r.owner_name}), tag {r.last_tag}: expires "
            f"{format_day_short(end, day)}; renew for {day.year + 1}",
            False,
        )
        for r in renewals_due(db, day.year + 1, day, profile)
    ]


# Up to TODAY_EACH_UP_TO dogs a category, Today lists them one by one (the seam's cap,
# fieldops.modules); above it, one line with the count (CountedDueItem).

# The licence list's "Show" filter a summary item opens on (ui.licences.opening).
SUMMARY_SHOWS = {"lapsed": "due", "late": "late", "expiring": "current"}


def unrenewed_count(db: Database, year: int) -> int:
    """How many dogs licensed in ``year - 1`` have no current licence for ``year``: one
    count, the database's, without reading the dogs."""
    with db.read() as s:  # Core, through the unit of work's connection: no ORM rows
        return int(s.connection().execute(_count_statement(year)).scalar_one())


@lru_cache(maxsize=8)
def _count_statement(year: int) -> Select[Any]:
    """The renewal list's conditions (``renewals.unrenewed_query``) as one count, built
    once a year asked, on the licence's own copy of "renewed for the next year" (kept by
    the triggers of migration 0025, checked by ``fieldops check``): a range of
    ``ix_dog_licence_unrenewed``, the dogs still to renew only, where asking each of last
    year's 160,000 licences whether its dog has one this year cost 80-100 ms.

    These are the licence list's own "due"/"late" conditions (``listing``), so the count
    Today shows is the one the list it opens shows. The owner join is left out, as every
    licence has its owner (``owner_id`` is NOT NULL, a foreign key); so is the dog's row,
    as every licence has its dog (``animal_id`` likewise): "the dog is not archived" is
    "its id is not among the archived dogs'" (a few, read once from their index)."""
    return (
        select(func.count())
        .select_from(DogLicence)
        .where(
            DogLicence.status == "current",
            DogLicence.renewed == false(),
            DogLicence.licence_year == year - 1,
            DogLicence.animal_id.not_in(select(Animal.id).where(Animal.archived_at.is_not(None))),
        )
    )


def due_summary(db: Database, day: date, profile: Profile) -> tuple[DueItem, ...]:
    """Today's licence items: one a category with its count, not one a dog, once a
    category has more than ``TODAY_EACH_UP_TO`` dogs (up to it, one a dog as in
    ``due_items``, read only after the count says they are few).

    At a city's size thousands of dogs are unrenewed from January to the late-fee day
    and every licence is unrenewed all December; a clerk works them from the renewal
    list (letters, the late list), not one by one on Today, so Today says how many and
    opens that list (``kind`` "renewals_" and the list's Show filter, ``record_id`` the
    licence year). ``due_items`` (``fieldops due``) keeps one item a dog."""
    items: list[DueItem] = []

    def add(cat: str, year: int, n: int, due: date, text_: str, overdue: bool) -> None:
        code = f"{KEY}.{cat}"
        items.append(
            CountedDueItem(
                module=KEY,
                kind=f"renewals_{SUMMARY_SHOWS[cat]}",
                record_id=year,
                due=due,
                category=code,
                category_label=CATEGORIES[code],
                text=text_,
                overdue=overdue,
                sort_key=(list(CATEGORIES).index(code), "", 0),
                count=n,
            )
        )

    n = unrenewed_count(db, day.year)
    if 0 < n <= TODAY_EACH_UP_TO:
        items += _renewal_items(db, day, profile)
    elif n:
        q = adult_quote(day.year, day, profile, True)
        dogs = f"{n:,} dog{'s' if n != 1 else ''} licensed for {day.year - 1}"
        if q.late:
            add(
                "late",
                day.year,
                n,
                q.due_by,
                f"{dogs} not licensed for {day.year}: due by "
                f"{format_day_short(q.due_by, day)}, the late fee now owed; open the late list",
                True,
            )
        else:
            add(
                "lapsed",
                day.year,
                n,
                q.due_by,
                f"{dogs} not yet renewed for {day.year}: renew by "
                f"{format_day_short(q.due_by, day)}; open the renewal list",
                False,
            )
    if _expiring_shown(day):
        n = unrenewed_count(db, day.year + 1)
        end = date(day.year, 12, 31)
        if 0 < n <= TODAY_EACH_UP_TO:
            items += _expiring_items(db, day, profile)
        elif n:
            add(
                "expiring",
                day.year + 1,
                n,
                end,
                f"{n:,} dog licence{'s' if n != 1 else ''} of {day.year} expire "
                f"{format_day_short(end, day)}, not yet renewed for {day.year + 1}",
                False,
            )
    return tuple(items)


def checks(conn: Connection) -> list[str]:
    """Licences written past the services, and two current licences of one dog a year."""
    out = []
    n = conn.execute(
        text(
            "SELECT count(*) FROM dog_licence t WHERE NOT EXISTS (SELECT 1 FROM audit_event e "
            "WHERE e.entity = 'dog_licence' AND e.entity_id = t.id AND e.action IN "
            "('licence_issue', 'licence_renew', 'licence_replacement', 'licence_transfer'))"
        )
    ).scalar_one()
    if n:
        out.append(f"{n} dog licence(s) have no audit trail of their issue")
    twice = conn.execute(
        text(
            "SELECT animal_id, licence_year FROM dog_licence WHERE status = 'current' "
            "GROUP BY animal_id, licence_year HAVING count(*) > 1 ORDER BY animal_id"
        )
    ).all()
    if twice:
        out.append(
            f"{len(twice)} dog(s) have two current licences for one year: "
            + ", ".join(f"animal #{a} ({y})" for a, y in twice[:10])
        )
    from fieldops.services.licences.listing import stale_list_copies  # the check, not Today

    out += stale_list_copies(conn)
    return out


def demo(d: Demo) -> str:
    from fieldops.services.licences.demo import fill

    n = fill(d)
    return f"{n} dog licences" if n else ""


def _activity(db: Database, start: date, end: date) -> tuple[ActivitySection, ...]:
    from fieldops.services.licences.activity import activity

    return activity(db, start, end)


def _register(request: ReportRequest) -> ReportOutput:
    from fieldops.services.licences.register import build_register

    return build_register(request)


def licence_on_record(s: Session, animal_id: int, year: int) -> str | None:
    """The dog's licence for licence ``year`` in force: issued, and neither voided nor
    followed by a replacement or a transfer (that one is the current row), in words;
    for a dog with no licence issued here, the one on its registry record."""
    row = s.execute(
        select(DogLicence.id, DogLicence.tag_number, DogLicence.licence_year)
        .where(
            DogLicence.animal_id == animal_id,
            DogLicence.licence_year == year,
            DogLicence.status == "current",
        )
        .order_by(DogLicence.id.desc())
        .limit(1)
    ).first()
    if row is not None:
        return f"{row.tag_number} ({row.licence_year})"
    if s.scalar(select(DogLicence.id).where(DogLicence.animal_id == animal_id).limit(1)):
        return None  # licences on record, none in force for that year
    # A dog with no licence issued here: the one typed on its registry record (kept
    # from before this module, or entered by hand), as the pound read it before.
    animal = s.get(Animal, animal_id)
    if animal is None or not animal.licence_number or animal.licence_year != year:
        return None
    return f"{animal.licence_number} ({animal.licence_year})"


MODULE = Module(
    KEY,
    "Dog licences",
    licence_on_record=licence_on_record,
    due_items=due_items,
    # Today: the dogs to renew as one count a category (thousands a day in a city).
    today_items=due_summary,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    activity=_activity,
    # The licences' counts of a year and status (migration 0031), kept by triggers as
    # licences are written: migrate-to's target counts them as the licences are copied.
    kept_tables={
        "dog_licence_count": later_call("fieldops.services.licences.listing:stale_licence_counts")
    },
    # What Today does not need is imported at its first use (fieldops/later.py, issue 14).
    event_kinds=LaterMapping("fieldops.services.licences.history_words:EVENT_KINDS"),
    self_test=LaterSequence("fieldops.services.licences.selftest_steps:LICENCE_STEPS"),
    reports=(
        ReportKind(
            "licence-register",
            "Dog licence register (58-533(c))",
            _register,
            description="Every dog licence issued in a period: tag, dog, owner, rate, late "
            "fee, total paid, rabies certificate, status.",
        ),
    ),
)
