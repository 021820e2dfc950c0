"""Reading one bite case: the quarantine's view, the bite report's view, the open ones of an
animal."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from fieldops.db.engine import Database
from fieldops.db.models import BiteReport, Impoundment, Quarantine
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, to_local
from fieldops.services.context import Actor, audit_read, fetch, now
from fieldops.services.quarantine.fees import fees_in
from fieldops.services.quarantine.views import (
    BiteView,
    QuarantineView,
    bite_view,
    case_rows,
    quarantine_view,
)


def get_quarantine(
    db: Database, quarantine_id: int, profile: Profile, today: date | None = None
) -> QuarantineView:
    today = today or to_local(now(), profile).date()
    with db.read() as s:
        q = fetch(s, Quarantine, quarantine_id)
        case = case_rows(s, q)  # read once for the view and its fees
        view = replace(
            quarantine_view(s, q, profile, today, case), fees=fees_in(s, q, profile, now(), case)
        )
        imp_id = view.bite.impoundment_id
        if imp_id is not None:
            imp = s.get(Impoundment, imp_id)
            if imp is not None and not imp.bit_person:
                view = replace(
                    view,
                    warnings=(
                        *view.warnings,
                        (
                            f"Impoundment #{imp_id} was not recorded as a bite: correct its intake "
                            "(\u201cbit a person\u201d) so that the 10-day hold applies "
                            "(city code 58-526)."
                        ),
                    ),
                )
        return view


@requires(Permission.BITE_REPORTS)
def bite_victim_contact(db: Database, actor: Actor, report_id: int) -> str:
    """The contact of the person bitten, private to the case (issue 9): shown on the case's
    own record only, on request ("Show contact"); never in a view, list, Today or document.
    The one place it is read, and each read is audited (who looked, when: issue 12)."""
    with db.write() as s:
        contact = fetch(s, BiteReport, report_id).victim_contact
        audit_read(s, actor, "victim_contact", "bite_report", report_id)
        return contact


def get_bite(db: Database, bite_report_id: int, profile: Profile) -> BiteView:
    with db.read() as s:
        return bite_view(s, fetch(s, BiteReport, bite_report_id), profile)


def open_quarantines_of(s: Session, animal_id: int) -> list[Quarantine]:
    return list(
        s.scalars(
            select(Quarantine)
            .where(Quarantine.animal_id == animal_id, Quarantine.status == "open")
            .order_by(Quarantine.id)
        )
    )
