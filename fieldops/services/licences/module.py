"""Dog licences as a module on the seam: due items, demo, checks, the register.

There is no release block of its own: the pound's release already asks for a licence
(58-526(b)(1)c) and reads it on the registry animal, which a licence issued here
keeps (``issue.record_on_animal``), so a licence issued at the pound counter is the
release's licence evidence.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import Connection, text

from fieldops.db.engine import Database
from fieldops.modules import Demo, DueItem, Module, ReportKind, ReportOutput, ReportRequest
from fieldops.rules import Profile, format_day_short
from fieldops.services.licences.history_words import EVENT_KINDS
from fieldops.services.licences.renewals import RenewalRow, renewals_due
from fieldops.services.licences.selftest_steps import LICENCE_STEPS

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
    and, in December, this year's licences not yet renewed for the next."""
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
    if day.month == 12 and day.day >= EXPIRING_FROM:
        end = date(day.year, 12, 31)
        for r in renewals_due(db, day.year + 1, day, profile):
            items.append(
                _item(
                    "expiring",
                    r,
                    end,
                    f"{r.animal_name} ({r.owner_name}), tag {r.last_tag}: expires "
                    f"{format_day_short(end, day)}; renew for {day.year + 1}",
                    False,
                )
            )
    return tuple(sorted(items, key=lambda i: i.sort_key))


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
    return out


def demo(d: Demo) -> str:
    from fieldops.services.licences.demo import fill

    n = fill(d)
    return f"{n} dog licences" if n else ""


def _register(request: ReportRequest) -> ReportOutput:
    from fieldops.services.licences.register import build_register

    return build_register(request)


MODULE = Module(
    KEY,
    "Dog licences",
    due_items=due_items,
    categories=CATEGORIES,
    demo=demo,
    checks=checks,
    event_kinds=EVENT_KINDS,
    self_test=LICENCE_STEPS,  # fieldops --self-test (selftest_steps.py)
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
