"""The latest supervisor corrections of one bite case, and the values they put in force.

A correction never edits the bite report or the exam: everything that reads a date or a
finding of a bite case reads it through these functions, so the plan, the list's copies,
Today's items, the documents and the log all follow the corrected value. Dates are kept
in the correction as ISO text (the bite's time in UTC, an exam's day as a date)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import Connection, bindparam, select
from sqlalchemy.orm import Session

from fieldops.db.models import BiteReport, QuarantineCorrection, QuarantineExam
from fieldops.rules import Profile, to_local
from fieldops.rules.quarantine import rabies_proof_on

Key = tuple[str, int, str]
# Corrections that change a date or an outcome of the plan (not only words).
PLAN_FIELDS = {("bite_report", "bitten_at"), ("exam", "examined_on"), ("exam", "finding")}


def corrections_of(s: Session, bite_id: int) -> dict[Key, str]:
    """The latest corrected value of every corrected field of one bite case."""
    out: dict[Key, str] = {}
    for c in s.scalars(
        select(QuarantineCorrection)
        .where(QuarantineCorrection.bite_report_id == bite_id)
        .order_by(QuarantineCorrection.id)
    ):
        out[(c.target, c.target_id, c.field)] = c.new_value
    return out


def corrected(fixes: dict[Key, str], target: str, target_id: int, field: str, value: str) -> str:
    return fixes.get((target, target_id, field), value)


def corrected_fee(fixes: dict[Key, str], exam_id: int, fee: Decimal) -> Decimal:
    value = fixes.get(("exam", exam_id, "fee"))
    return Decimal(value) if value is not None else fee


def bitten_at_of(fixes: dict[Key, str] | None, bite: BiteReport) -> datetime:
    value = (fixes or {}).get(("bite_report", bite.id, "bitten_at"))
    return datetime.fromisoformat(value) if value else bite.bitten_at


def rabies_proof_of(fixes: dict[Key, str] | None, bite: BiteReport, profile: Profile) -> bool:
    """Proof current on the (corrected) day of the bite: the stored answer is for the day
    first written, so a corrected time asks the rules again."""
    if not (fixes or {}).get(("bite_report", bite.id, "bitten_at")):
        return bite.rabies_proof
    day = to_local(bitten_at_of(fixes, bite), profile).date()
    return rabies_proof_on(day, bite.rabies_vaccinated_on, bite.rabies_expires_on).current


def examined_on_of(fixes: dict[Key, str] | None, x: QuarantineExam) -> date:
    value = (fixes or {}).get(("exam", x.id, "examined_on"))
    return date.fromisoformat(value) if value else x.examined_on


def finding_of(fixes: dict[Key, str] | None, x: QuarantineExam) -> str:
    return (fixes or {}).get(("exam", x.id, "finding")) or x.finding


def dated(fixes: dict[Key, str] | None) -> bool:
    """Whether any correction of this case moves a date or a finding."""
    return any((t, f) in PLAN_FIELDS for t, _i, f in (fixes or {}))


_BITE_TIMES = (
    select(QuarantineCorrection.bite_report_id, QuarantineCorrection.new_value)
    .where(
        QuarantineCorrection.target == "bite_report",
        QuarantineCorrection.field == "bitten_at",
    )
    .order_by(QuarantineCorrection.id)
)
# Built once: the quarantines list asks it for every page (building it cost more than it ran).
_BITE_TIMES_OF = _BITE_TIMES.where(
    QuarantineCorrection.bite_report_id.in_(bindparam("bite_ids", expanding=True))
)


def bite_times(
    s: Session | Connection, bite_ids: Iterable[int] | None = None
) -> dict[int, datetime]:
    """The corrected bite times (bite id -> time), of the given bites or of every bite."""
    rows = (
        s.execute(_BITE_TIMES)
        if bite_ids is None
        else s.execute(_BITE_TIMES_OF, {"bite_ids": list(bite_ids)})
    )
    return {b: datetime.fromisoformat(v) for b, v in rows}
