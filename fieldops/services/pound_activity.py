"""The pound's part of the activity summary: intakes, dispositions, days held, fees.

Three statements whatever the period, each covering the period and the same
period a year earlier at once and aggregated in SQL (GROUP BY one packed integer
key: the period and the positions of the codes in their lists, and the days):

- intakes (custody day in the period) by species (the impoundment's copy of its
  animal's, kept by the schema's triggers: no join), reason and whether the
  intake recorded a repeat impoundment (``repeat_of_id``, set at intake by
  ``fieldops.rules.impound.is_repeat_impoundment``);
- the animals disposed of in the period (the disposition in force, by its
  local date) by kind and by the number of days held;
- the fees collected in the period (payments by their local date) by kind.

Days held: the ordinance defines no "days held" (it defines boarding days for
the fee, with a minimum of one), so a stay is counted from the custody day to
the local day of the disposition in force: a same-day release is 0 days.

The median: SQL returns one row per number of days held (a histogram, a few
hundred rows at most whatever the period), and the median and range are read
off that distribution here. It is exact and the same on SQLite and PostgreSQL
(SQLite has no ``percentile_cont``), and costs no sort of the rows themselves.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta, tzinfo
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Date,
    Integer,
    and_,
    case,
    cast,
    func,
    literal,
    select,
    type_coerce,
    union_all,
)

from fieldops.db.engine import Database
from fieldops.db.models import Impoundment, Payment, PaymentLine
from fieldops.db.models.impound import DISPOSITION_CODES, PAYMENT_KIND_CODES, REASON_CODES
from fieldops.db.types import Money, UTCDateTime
from fieldops.modules import ActivityFigure, ActivitySection, year_earlier
from fieldops.rules import Profile
from fieldops.rules.calendar import start_of_local_day
from fieldops.rules.profile import SPECIES
from fieldops.services.impound_views import DISPOSITIONS, PAYMENT_KINDS, REASONS

_SPECIES_WORDS = {"dog": "Dogs", "cat": "Cats", "other": "Other animals"}
SPECIES_LABELS = {code: _SPECIES_WORDS.get(code, code) for code in SPECIES}
NOW, BEFORE = 1, 0  # the period column: this period, or the same period a year earlier


def _offset_changes(lo: datetime, hi: datetime, tz: tzinfo) -> list[tuple[datetime, timedelta]]:
    """The zone's UTC offset at ``lo`` (instant None), then each change before ``hi``.

    Walks by days, then hours, then minutes where the offset changes: a couple of
    changes a year in a zone with daylight time, none in one without."""

    def off(t: datetime) -> timedelta:
        return t.astimezone(tz).utcoffset() or timedelta(0)

    out: list[tuple[datetime, timedelta]] = [(lo, off(lo))]
    t = lo
    while t < hi:
        day = t + timedelta(days=1)
        if off(day) != out[-1][1]:
            for step in (timedelta(hours=1), timedelta(minutes=1)):
                while off(t + step) == out[-1][1]:
                    t += step
            t += timedelta(minutes=1)
            out.append((t, off(t)))
        else:
            t = day
    return out


def _local_days_held(db: Database, lo: datetime, hi: datetime, tz: tzinfo) -> ColumnElement[Any]:
    """Days from the custody day to the local day of the disposition in force, in SQL.

    PostgreSQL converts with the zone itself; SQLite has no zones, so the offset
    in force at the instant is chosen among the zone's offsets between ``lo``
    and ``hi`` (the dispositions asked about all fall between them)."""
    at = Impoundment.disposition_at
    if db.dialect == "postgresql":
        local = cast(func.timezone(getattr(tz, "key", str(tz)), at), Date)
        return cast(local - Impoundment.custody_day, Integer)
    changes = _offset_changes(lo, hi, tz)

    def seconds(offset: timedelta) -> int:
        return int(offset.total_seconds())

    shift: Any = literal(seconds(changes[-1][1]))
    if len(changes) > 1:
        shift = case(
            *(
                (at < literal(changes[n + 1][0], UTCDateTime), seconds(offset))
                for n, (_, offset) in enumerate(changes[:-1])
            ),
            else_=seconds(changes[-1][1]),
        )
    # Whole days since 1970 by integer division (exact; every instant here is after
    # 1970): the local day of the instant less the custody day.
    local_day: ColumnElement[int] = (_epoch(at) + shift) // 86400
    return local_day - _epoch(Impoundment.custody_day) // 86400


def _epoch(column: Any) -> ColumnElement[int]:
    """Seconds since 1970 of a stored UTC instant or date, as an integer (SQLite)."""
    if sqlite3.sqlite_version_info >= (3, 38):
        return func.unixepoch(column, type_=Integer)
    return cast(func.strftime("%s", column), Integer)


_SPAN = 1_000_000  # days held are packed as days + 500,000 below a million
UNKNOWN = "unknown"  # a code the lists below do not name (the schema's checks forbid it)


def _position(column: Any, codes: Sequence[str]) -> ColumnElement[int]:
    """1 for the first code, 2 for the second...; 0 for a code not in ``codes``."""
    return case({code: n for n, code in enumerate(codes, start=1)}, value=column, else_=0)


def _code(codes: Sequence[str], position: int) -> str:
    return codes[position - 1] if 0 < position <= len(codes) else UNKNOWN


def _in(column: Any, lo: Any, hi: Any, *, half_open: bool) -> ColumnElement[bool]:
    return and_(column >= lo, column < hi) if half_open else and_(column >= lo, column <= hi)


def _median(histogram: Mapping[int, int]) -> float | None:
    """The median of a distribution given as value -> how many (None when empty)."""
    total = sum(histogram.values())
    if not total:
        return None
    wanted = ((total - 1) // 2, total // 2)  # the middle one, or the middle two
    found: list[int] = []
    seen = 0
    for value in sorted(histogram):
        n = histogram[value]
        for w in wanted:
            if seen <= w < seen + n:
                found.append(value)
        seen += n
    return sum(found) / len(found)


def _figures(
    labels: Mapping[str, str], counts: Mapping[tuple[int, str], Any], zero: Any = 0
) -> tuple[ActivityFigure, ...]:
    """One figure per label (in its order), then any code the labels do not know."""
    codes = list(labels) + sorted({c for _, c in counts} - set(labels))
    return tuple(
        ActivityFigure(
            labels.get(code, "Not a known code" if code == UNKNOWN else code),
            counts.get((NOW, code), zero),
            counts.get((BEFORE, code), zero),
        )
        for code in codes
    )


def activity(
    db: Database, start: date, end: date, *, profile: Profile | None = None
) -> tuple[ActivitySection, ...]:
    """The pound's sections of the activity summary for ``start``..``end`` (local dates,
    both included), each figure beside the same period a year earlier.

    ``profile`` gives the time zone of the local dates (the default profile when
    not given: the seam passes none)."""
    profile = profile or Profile.default()
    tz = profile.timezone
    periods = {NOW: (start, end), BEFORE: (year_earlier(start), year_earlier(end))}
    instants = {
        k: (start_of_local_day(a, profile), start_of_local_day(b + timedelta(days=1), profile))
        for k, (a, b) in periods.items()
    }

    def periods_of(
        column: Any, bounds: Mapping[int, tuple[Any, Any]], half_open: bool, rows: Any
    ) -> Any:
        """``rows(period, inside)`` for this period and for a year earlier, one after the
        other (UNION ALL): each reads its own range of ``column``'s index, with its
        period a constant. (One statement with "in this period OR in the other" made
        SQLite gather and de-duplicate every row's id first, and work out each row's
        period again: a third of the statement at a year of a city.)"""
        return union_all(
            *(
                rows(literal(k, Integer), _in(column, *bounds[k], half_open=half_open))
                for k in (NOW, BEFORE)
            )
        ).subquery()

    def at_bounds() -> dict[int, tuple[Any, Any]]:
        return {
            k: (literal(a, UTCDateTime), literal(b, UTCDateTime)) for k, (a, b) in instants.items()
        }

    # Each statement groups by one packed integer (period, codes' positions, days):
    # SQLite sorts to group, and one integer sorts far faster than several text keys.
    # Intakes: by species, reason and repeat, both periods in one statement.
    repeat = case((Impoundment.repeat_of_id.is_not(None), 1), else_=0)

    def intake_rows(period: Any, inside: Any) -> Any:
        packed = ((period * 8 + _position(Impoundment.animal_species, SPECIES)) * 8) + _position(
            Impoundment.reason, REASON_CODES
        )
        return select((packed * 2 + repeat).label("key")).where(inside)

    rows = periods_of(Impoundment.custody_day, periods, False, intake_rows)
    intakes_q = select(rows.c.key, func.count()).group_by(rows.c.key)

    # Dispositions in force, by their local day: by kind and days held.
    held = _local_days_held(db, instants[BEFORE][0], instants[NOW][1], tz)
    kind = _position(Impoundment.disposition_kind, DISPOSITION_CODES)

    def disposed_rows(period: Any, inside: Any) -> Any:
        return select(((period * 8 + kind) * _SPAN + held + _SPAN // 2).label("key")).where(
            Impoundment.disposition_at.is_not(None), inside
        )

    rows = periods_of(Impoundment.disposition_at, at_bounds(), True, disposed_rows)
    disposed_q = select(rows.c.key, func.count()).group_by(rows.c.key)

    # Fees collected, by the payment's local day and the line's kind.
    def fee_rows_of(period: Any, inside: Any) -> Any:
        return (
            select(
                (period * 8 + _position(PaymentLine.kind, PAYMENT_KIND_CODES)).label("key"),
                PaymentLine.amount.label("amount"),
            )
            .join(Payment, Payment.id == PaymentLine.payment_id)
            .where(inside)
        )

    rows = periods_of(Payment.paid_at, at_bounds(), True, fee_rows_of)
    fees_q = select(rows.c.key, type_coerce(func.sum(rows.c.amount), Money))
    fees_q = fees_q.group_by(rows.c.key)

    with db.read() as s:
        conn = s.connection()
        intakes = conn.execute(intakes_q).all()
        disposed = conn.execute(disposed_q).all()
        fees = conn.execute(fees_q).all()

    by_species: Counter[tuple[int, str]] = Counter()
    by_reason: Counter[tuple[int, str]] = Counter()
    totals: Counter[tuple[int, str]] = Counter()
    for key, n in intakes:
        rest, is_repeat = divmod(key, 2)
        rest, reason = divmod(rest, 8)
        p, species = divmod(rest, 8)
        by_species[p, _code(SPECIES, species)] += n
        by_reason[p, _code(REASON_CODES, reason)] += n
        totals[p, "intakes"] += n
        totals[p, "repeats"] += n if is_repeat else 0
    by_kind: Counter[tuple[int, str]] = Counter()
    histogram: dict[int, Counter[int]] = defaultdict(Counter)
    for key, n in disposed:
        rest, days = divmod(key, _SPAN)
        p, kind_at = divmod(rest, 8)
        by_kind[p, _code(DISPOSITION_CODES, kind_at)] += n
        histogram[p][days - _SPAN // 2] += n
        totals[p, "disposed"] += n
    fee_rows = []
    for key, amount in fees:
        p, kind_at = divmod(key, 8)
        fee_rows.append((p, _code(PAYMENT_KIND_CODES, kind_at), amount))
    paid: dict[tuple[int, str], Decimal] = {}
    paid_all = {NOW: Decimal("0.00"), BEFORE: Decimal("0.00")}
    for p, code, amount in fee_rows:
        paid[p, code] = paid.get((p, code), Decimal("0.00")) + amount
        paid_all[p] += amount

    def both(key: str) -> tuple[int, int]:
        return totals[NOW, key], totals[BEFORE, key]

    def held_figure(label: str, pick: Any) -> ActivityFigure:
        now, before = (pick(histogram[k]) if histogram[k] else None for k in (NOW, BEFORE))
        return ActivityFigure(label, now, before)

    window = profile.repeat_window_days
    return (
        ActivitySection(
            "Pound: the period at a glance",
            (
                ActivityFigure("Animals impounded", *both("intakes")),
                ActivityFigure(
                    f"Repeat impoundments (again within {window} days)", *both("repeats")
                ),
                ActivityFigure("Animals disposed of", *both("disposed")),
                ActivityFigure("Fees collected", paid_all[NOW], paid_all[BEFORE]),
            ),
        ),
        ActivitySection("Intakes by species", _figures(SPECIES_LABELS, by_species), chart=True),
        ActivitySection("Intakes by reason", _figures(REASONS, by_reason), chart=True),
        ActivitySection("Dispositions by kind", _figures(DISPOSITIONS, by_kind), chart=True),
        ActivitySection(
            "Days held (custody day to disposition day, animals disposed of in the period)",
            (
                held_figure("Median days held", _median),
                held_figure("Shortest stay (days)", lambda h: min(h)),
                held_figure("Longest stay (days)", lambda h: max(h)),
            ),
        ),
        ActivitySection(
            "Fees collected at the pound, by kind",
            _figures(PAYMENT_KINDS, paid, Decimal("0.00")),
            chart=True,
        ),
    )
