"""The field calls' part of the activity summary (issue 16): calls by kind, by how they came
in and by outcome, the time from a call to an officer's arrival, complaints and petitions
(58-534(a)) and citations (58-534(b)), each for the period and the same period a year
earlier, counted in SQL: five statements whatever the period's length.

What falls in a period, by its local days (the profile's zone):

- a call by when it was received; its dispatch, arrival and outcome are counted with it
  (the call's copies of its state: ``status`` "open" is never dispatched; ``outcome`` is
  the latest dispatch's), so a call received on the 31st and cleared on the 1st is the
  31st's;
- the minutes to arrival run from the call's receipt to its first recorded arrival. SQL
  returns one row per whole minute (a histogram: a few hundred rows whatever the period)
  with the seconds summed: the mean is exact, the median is read off the histogram in
  whole minutes (as the pound reads its days held; SQLite has no ``percentile_cont``);
- a complaint by when it was logged, an owner's notification by when it was made;
- a petition by the day it was received (refused or accepted; an accepted one is referred
  on receipt, by where it went);
- a citation by when it was issued (one offence each, 58-534(b)); the forfeitures are
  those of the citations issued; a payment by the day it was paid. A voided citation is
  neither counted nor summed (no offence, nothing owed), as a voided licence is not.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    and_,
    case,
    cast,
    extract,
    func,
    literal,
    or_,
    select,
    type_coerce,
    union_all,
)

from fieldops.db.engine import Database
from fieldops.db.models import CallCitation, CallComplaint, CallDispatch, CallPetition, FieldCall
from fieldops.db.types import UTCDateTime
from fieldops.modules import ActivityFigure, ActivitySection, year_earlier
from fieldops.rules import Profile, start_of_local_day
from fieldops.rules import calls as rules

NOW, BEFORE = 1, 0  # the period: this one, or the same period a year earlier
NO_OUTCOME = "none"
CENT = Decimal("0.01")


def _position(column: Any, codes: Sequence[str]) -> ColumnElement[int]:
    """1 for the first code, 2 for the second...; 0 for none (NULL) or an unknown code."""
    return case({code: n for n, code in enumerate(codes, start=1)}, value=column, else_=0)


def _seconds(db: Database, later: Any, earlier: Any) -> ColumnElement[int]:
    """Whole seconds from ``earlier`` to ``later`` (two stored instants), in SQL."""
    if db.dialect == "postgresql":
        return cast(func.round(extract("epoch", later - earlier)), Integer)
    return cast(func.round((func.julianday(later) - func.julianday(earlier)) * 86400), Integer)


def _first_arrivals(db: Database, each_period: Any) -> Any:
    """Each call received in the periods with its period, when it was received and its
    first recorded arrival (NULL when no officer arrived yet); ``each_period(rows)`` is
    ``rows(period, inside)`` for each period, one after the other.

    PostgreSQL groups the calls' dispatches. On SQLite, grouping by the call made the
    planner read every call ever received in the order of their ids (500,000 rows of
    the table at a city's size) rather than the periods' calls from the index of the
    day received; so there the first arrival is each call's own look-up in the index
    of its dispatches (``ix_call_dispatch_call_arrived``, migration 0026), and the
    calls are kept once (MATERIALIZED) so the look-up is not repeated for each use."""
    if db.dialect == "postgresql":

        def grouped(period: Any, inside: Any) -> Any:
            return (
                select(
                    period.label("period"),
                    FieldCall.received_at.label("received"),
                    func.min(CallDispatch.arrived_at).label("arrived"),
                )
                .join(CallDispatch, CallDispatch.call_id == FieldCall.id)
                .where(inside, CallDispatch.arrived_at.is_not(None))
                .group_by(FieldCall.id)
            )

        return each_period(grouped).subquery()
    first = (
        select(func.min(CallDispatch.arrived_at))
        .where(CallDispatch.call_id == FieldCall.id, CallDispatch.arrived_at.is_not(None))
        .scalar_subquery()
    )

    def looked_up(period: Any, inside: Any) -> Any:
        return select(
            period.label("period"),
            FieldCall.received_at.label("received"),
            type_coerce(first, UTCDateTime).label("arrived"),
        ).where(inside)

    calls = each_period(looked_up).cte("calls_in")
    # The hint is SQLite 3.35's; an older one may repeat the look-up, counting the same.
    return calls.prefix_with("MATERIALIZED") if sqlite3.sqlite_version_info >= (3, 35) else calls


def _money(cents: Any) -> Decimal:
    return (Decimal(int(cents or 0)) / 100).quantize(CENT)


def _median(histogram: Mapping[int, int]) -> float | None:
    """The median of value -> how many (the middle value, or the mean of the middle two)."""
    total = sum(histogram.values())
    if not total:
        return None
    wanted, seen, found = ((total - 1) // 2, total // 2), 0, []
    for value in sorted(histogram):
        found += [value for w in wanted if seen <= w < seen + histogram[value]]
        seen += histogram[value]
    return sum(found) / len(found)


def activity(
    db: Database, start: date, end: date, profile: Profile | None = None
) -> tuple[ActivitySection, ...]:
    """The calls module's sections for ``start``..``end`` (local dates, both included),
    beside the same days a year earlier (the seam passes no profile: the city's own)."""
    profile = profile or Profile.default()
    days = {NOW: (start, end), BEFORE: (year_earlier(start), year_earlier(end))}
    instants = {
        k: (start_of_local_day(a, profile), start_of_local_day(b + timedelta(days=1), profile))
        for k, (a, b) in days.items()
    }

    def at(column: Any) -> tuple[ColumnElement[int], ColumnElement[bool]]:
        """Which period an instant falls in, and whether it falls in either."""
        now_, before = (
            and_(column >= literal(lo, UTCDateTime), column < literal(hi, UTCDateTime))
            for lo, hi in (instants[NOW], instants[BEFORE])
        )
        return case((now_, NOW), else_=BEFORE), or_(now_, before)

    def on(column: Any) -> tuple[ColumnElement[int], ColumnElement[bool]]:
        now_, before = (column.between(lo, hi) for lo, hi in (days[NOW], days[BEFORE]))
        return case((now_, NOW), else_=BEFORE), or_(now_, before)

    kinds, hows, outcomes = (
        tuple(rules.CALL_KINDS),
        tuple(rules.RECEIVED_HOW),
        tuple(rules.OUTCOMES),
    )

    def each_period(rows: Any) -> Any:
        """``rows(period, inside)`` for this period, then a year earlier (UNION ALL): each
        its own range of the index of the day received, its period a constant. (One
        statement with "in this period OR the other" made SQLite gather and
        de-duplicate every call's id first, then work out its period again.)"""
        return union_all(
            *(
                rows(
                    literal(k, Integer),
                    and_(
                        FieldCall.received_at >= literal(instants[k][0], UTCDateTime),
                        FieldCall.received_at < literal(instants[k][1], UTCDateTime),
                    ),
                )
                for k in (NOW, BEFORE)
            )
        )

    # Calls: one packed integer a call (period, kind, how, outcome, dispatched), grouped.
    dispatched = case((FieldCall.status == "open", 0), else_=1)

    def call_rows(period: Any, inside: Any) -> Any:
        packed = (period * 16 + _position(FieldCall.kind, kinds)) * 4
        packed = ((packed + _position(FieldCall.received_how, hows)) * 16) * 2
        packed = packed + _position(FieldCall.outcome, outcomes) * 2 + dispatched
        return select(packed.label("key")).where(inside)

    rows = each_period(call_rows).subquery()
    calls_q = select(rows.c.key, func.count()).group_by(rows.c.key)
    # Minutes to the first arrival: each call of the periods with its first arrival (one
    # row a call, its dispatches found by their call's index), then one row a whole
    # minute with the seconds summed.
    calls_in = _first_arrivals(db, each_period)
    waited = _seconds(db, calls_in.c.arrived, calls_in.c.received)
    # Not below 0 (an officer sent in the minute the call came in), computed once.
    waited = (func.greatest if db.dialect == "postgresql" else func.max)(waited, 0)
    arrivals = (
        select(calls_in.c.period.label("period"), waited.label("s"))
        .where(calls_in.c.arrived.is_not(None))
        .subquery()
    )
    minute = arrivals.c.s // 60
    arrivals_q = select(arrivals.c.period, minute, func.count(), func.sum(arrivals.c.s)).group_by(
        arrivals.c.period, minute
    )
    # Complaints logged and owners notified.
    logged_p, logged_in = at(CallComplaint.logged_at)
    notified_p, notified_in = at(CallComplaint.notified_at)
    complaints_q = select(
        *(
            func.coalesce(func.sum(case((and_(inside, p == k), 1), else_=0)), 0)
            for inside, p in ((logged_in, logged_p), (notified_in, notified_p))
            for k in (NOW, BEFORE)
        )
    ).where(or_(logged_in, notified_in))
    # Petitions by the day received, refused or referred (and where).
    period, where = on(CallPetition.received_on)
    petitions_q = (
        select(period, CallPetition.status, CallPetition.referred_to, func.count())
        .where(where)
        .group_by(period, CallPetition.status, CallPetition.referred_to)
    )
    # Citations issued (with their forfeitures and warnings) and paid, by their days.
    issued_p, issued_in = at(CallCitation.issued_at)
    paid_p, paid_in = on(CallCitation.paid_on)
    cents = func.coalesce(type_coerce(CallCitation.forfeiture, Integer), 0)  # stored in cents

    def total(inside: Any, p: Any, k: int, value: Any = 1) -> Any:
        return func.coalesce(func.sum(case((and_(inside, p == k), value), else_=0)), 0)

    citations_q = select(
        *(
            col
            for k in (NOW, BEFORE)
            for col in (
                total(issued_in, issued_p, k),
                total(and_(issued_in, CallCitation.forfeiture.is_(None)), issued_p, k),
                total(issued_in, issued_p, k, cents),
                total(paid_in, paid_p, k),
                total(paid_in, paid_p, k, cents),
            )
        )
    ).where(or_(issued_in, paid_in), CallCitation.voided_at.is_(None))
    with db.read() as s:
        conn = s.connection()
        calls = conn.execute(calls_q).all()
        waits = conn.execute(arrivals_q).all()
        complaints = conn.execute(complaints_q).one()
        petitions = conn.execute(petitions_q).all()
        citations = conn.execute(citations_q).one()

    counts: Counter[tuple[int, str, str]] = Counter()
    for key, n in calls:
        rest, is_dispatched = divmod(key, 2)
        rest, outcome = divmod(rest, 16)
        rest, how = divmod(rest, 4)
        p, kind = divmod(rest, 16)
        counts[p, "all", ""] += n
        counts[p, "dispatched", ""] += n * is_dispatched
        counts[p, "kind", kinds[kind - 1] if kind else "?"] += n
        counts[p, "how", hows[how - 1] if how else "?"] += n
        counts[p, "outcome", outcomes[outcome - 1] if outcome else NO_OUTCOME] += n
    histogram: dict[int, Counter[int]] = defaultdict(Counter)
    seconds: Counter[int] = Counter()
    for p, m, n, total_s in waits:
        histogram[int(p)][int(m)] += int(n)
        seconds[int(p)] += int(total_s or 0)
    for p, status, referred_to, n in petitions:
        counts[int(p), "petition", status] += n
        if referred_to:
            counts[int(p), "referred", referred_to] += n

    def fig(label: str, group: str, code: str = "") -> ActivityFigure:
        return ActivityFigure(label, counts[NOW, group, code], counts[BEFORE, group, code])

    def wait_fig(label: str, pick: Any) -> ActivityFigure:
        now_, before = (pick(k) if histogram[k] else None for k in (NOW, BEFORE))
        return ActivityFigure(label, now_, before)

    def mean(k: int) -> float:
        return round(seconds[k] / 60 / sum(histogram[k].values()), 1)

    by_kind = tuple(fig(rules.kind_label(k), "kind", k) for k in kinds)
    by_how = tuple(fig(words, "how", k) for k, words in rules.RECEIVED_HOW.items())
    by_outcome = tuple(fig(words, "outcome", k) for k, words in rules.OUTCOMES.items())
    c = [int(x) for x in complaints]
    cit = list(citations)
    return (
        ActivitySection(
            "Field calls: the period at a glance (calls by the day received)",
            (
                fig("Calls received", "all"),
                fig("Calls dispatched (an officer sent)", "dispatched"),
                ActivityFigure(
                    "Calls with an arrival recorded",
                    *(sum(histogram[k].values()) for k in (NOW, BEFORE)),
                ),
                wait_fig("Mean minutes from the call to the first arrival", mean),
                wait_fig(
                    "Median minutes from the call to the first arrival (whole minutes)",
                    lambda k: _median(histogram[k]),
                ),
            ),
        ),
        ActivitySection("Calls received by kind", by_kind, chart=True),
        ActivitySection("Calls received by how they came in", by_how, chart=True),
        ActivitySection(
            "Outcomes of the calls received",
            (
                *by_outcome,
                fig("No outcome recorded yet (open or dispatched)", "outcome", NO_OUTCOME),
            ),
            chart=True,
        ),
        ActivitySection(
            "Complaints and petitions (58-534(a))",
            (
                ActivityFigure("Complaints logged", c[0], c[1]),
                ActivityFigure("Owners notified of a complaint", c[2], c[3]),
                ActivityFigure(
                    "Petitions received",
                    counts[NOW, "petition", "accepted"] + counts[NOW, "petition", "refused"],
                    counts[BEFORE, "petition", "accepted"] + counts[BEFORE, "petition", "refused"],
                ),
                fig("Petitions refused (a required part missing)", "petition", "refused"),
                fig("Petitions accepted and referred", "petition", "accepted"),
                *(
                    fig(f"Referred to {words[0].lower()}{words[1:]}", "referred", code)
                    for code, words in rules.REFERRALS.items()
                ),
            ),
        ),
        ActivitySection(
            "Citations (58-534(b))",
            (
                ActivityFigure("Citations issued", int(cit[0]), int(cit[5])),
                ActivityFigure("Of them warnings (no forfeiture)", int(cit[1]), int(cit[6])),
                ActivityFigure(
                    "Forfeitures of the citations issued", _money(cit[2]), _money(cit[7])
                ),
                ActivityFigure("Citations paid", int(cit[3]), int(cit[8])),
                ActivityFigure("Forfeitures paid", _money(cit[4]), _money(cit[9])),
            ),
        ),
    )
