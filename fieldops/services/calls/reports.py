"""The calls module's record reports (issue 16): the call log and the citations register
for a period, as ``fieldops report calls|citations`` and on the Reports page.

- **calls**: every call received on one of the period's local days, in call-number order
  (the order they were taken): when received, the kind, the address, the priority, the
  officer sent (the latest dispatch's), the outcome and the follow-up.
- **citations**: every citation issued on one of the period's local days, in number
  order: the person cited, the section, the day of the offence (and its place on the
  penalty ladder, 58-534(b)), the forfeiture, the court date and the day paid. A voided
  citation stays on its line, marked void with its reason, and counts in no total.

Both read in keyset chunks of ``CHUNK`` rows along the primary key, one statement a chunk,
in one read transaction; only each line's printed text is kept (the CSV's rows, which the
PDF draws when first asked for: ``DrawnWhenAsked``). The primary key rather than the time
received: the table has no index on the time, and a walk along the key reads the table
once whatever the period holds, where a walk in time order would sort it again for each
chunk.

Nothing private: the call log prints no caller, complainant or victim, only the place of
the call; the citations register is the court's record of who was cited. A public-records
copy is the same report, and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Connection, Select, func, select
from sqlalchemy.orm import aliased

from fieldops.db.cancel import Cancelled, cancellable
from fieldops.db.models import CallCitation, FieldCall, Person, StaffUser
from fieldops.errors import Collector
from fieldops.modules import ReportKind, ReportOutput, ReportRequest, ReportTable
from fieldops.rules import Profile, format_day, format_instant, start_of_local_day
from fieldops.rules import calls as rules

MAX_PERIOD_DAYS = 366
CHUNK = 2_000

CALL_COLUMNS = (
    "No.",
    "Received",
    "Kind",
    "Address",
    "Priority",
    "Officer",
    "Outcome",
    "Follow-up",
)
CITATION_COLUMNS = (
    "No.",
    "Person cited",
    "Section",
    "Offence day",
    "Forfeiture",
    "Court date",
    "Paid",
)
NOTHING_WITHHELD = "Nothing is withheld: the report prints no caller, complainant or victim."


def check_period(start: date, end: date) -> None:
    c = Collector()
    c.check(end >= start, "period_end", "The period cannot end before it starts.")
    c.check((end - start).days < MAX_PERIOD_DAYS, "period_end", "Print at most a year at a time.")
    c.raise_if_any()


def _bounds(start: date, end: date, profile: Profile) -> tuple[datetime, datetime]:
    return start_of_local_day(start, profile), start_of_local_day(end + timedelta(1), profile)


def _by_number(
    conn: Connection,
    query: Select[*tuple[Any, ...]],
    key: Any,
    chunk: int,
    cancelled: Callable[[], bool],
) -> Iterator[Any]:
    """``query``'s rows in order of ``key`` (the primary key, the rows' first column), a
    chunk at a time, each chunk starting past the last one's key."""
    after = 0
    while True:
        if cancelled():
            raise Cancelled("the report is no longer wanted")
        rows = conn.execute(query.where(key > after).order_by(key).limit(chunk)).all()
        yield from rows
        if len(rows) < chunk:
            return
        after = rows[-1][0]


# -- the call log ------------------------------------------------------------------------


def call_rows(
    conn: Connection,
    start: date,
    end: date,
    profile: Profile,
    *,
    chunk: int = CHUNK,
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[tuple[str, ...]]:
    """The call log's lines (``CALL_COLUMNS``) of the calls received in the period."""
    check_period(start, end)
    lo, hi = _bounds(start, end, profile)
    recheck = aliased(FieldCall)
    rechecked = (
        select(func.min(recheck.id))
        .where(recheck.recheck_of_id == FieldCall.id)
        .correlate(FieldCall)
        .scalar_subquery()
    )
    query = (
        select(
            FieldCall.id,
            FieldCall.received_at,
            FieldCall.kind,
            FieldCall.address,
            FieldCall.priority,
            FieldCall.officer,
            StaffUser.full_name,
            FieldCall.status,
            FieldCall.outcome,
            FieldCall.follow_up_on,
            rechecked,
        )
        .outerjoin(StaffUser, StaffUser.username == FieldCall.officer)
        .where(FieldCall.received_at >= lo, FieldCall.received_at < hi)
    )
    for r in _by_number(conn, query, FieldCall.id, chunk, cancelled):
        yield call_cells(r, profile)


def call_cells(r: Sequence[Any], profile: Profile) -> tuple[str, ...]:
    call_id, received, kind, address, priority, officer, name, status, outcome, follow, again = r
    if outcome:
        result = rules.OUTCOMES.get(outcome, outcome)
    else:
        result = "Not dispatched" if status == "open" else "Dispatched, no outcome yet"
    follow_up = format_day(follow) if follow else ""
    if again is not None:
        follow_up += f"; rechecked as call #{again}"
    return (
        str(call_id),
        format_instant(received, profile, midnight="plain"),
        rules.kind_label(kind),
        address,
        rules.PRIORITIES.get(priority, str(priority)),
        (name or officer) if officer else "",
        result,
        follow_up.lstrip("; "),
    )


# -- the citations register --------------------------------------------------------------


def citation_rows(
    conn: Connection,
    start: date,
    end: date,
    profile: Profile,
    *,
    chunk: int = CHUNK,
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[tuple[tuple[str, ...], Decimal, Decimal]]:
    """The register's lines (``CITATION_COLUMNS``) of the citations issued in the period,
    each with its forfeiture and what of it was paid (for the totals; nothing for a
    voided citation)."""
    check_period(start, end)
    lo, hi = _bounds(start, end, profile)
    query = (
        select(
            CallCitation.id,
            Person.full_name,
            CallCitation.section,
            CallCitation.offence_on,
            CallCitation.offence_number,
            CallCitation.forfeiture,
            CallCitation.plus_court_costs,
            CallCitation.court_on,
            CallCitation.paid_on,
            CallCitation.voided_at,
            CallCitation.void_reason,
        )
        .join(Person, Person.id == CallCitation.person_id)
        .where(CallCitation.issued_at >= lo, CallCitation.issued_at < hi)
    )
    for r in _by_number(conn, query, CallCitation.id, chunk, cancelled):
        forfeiture = Decimal("0.00") if r[9] is not None else r[5] or Decimal("0.00")
        yield citation_cells(r), forfeiture, forfeiture if r[8] else Decimal("0.00")


def _money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def citation_cells(r: Sequence[Any]) -> tuple[str, ...]:
    cid, person, section, offence_on, number, forfeiture, costs, court_on, paid_on = r[:9]
    voided_at, void_reason = r[9:11]
    if forfeiture is None:
        fine = "Warning"
    else:
        fine = _money(forfeiture) + (" plus court costs" if costs else "")
    unpaid = "" if forfeiture is None else "Unpaid"  # a warning has nothing to pay
    paid = format_day(paid_on) if paid_on is not None else unpaid
    if voided_at is not None:  # on record, owed by nobody: not added into the totals
        fine = "Void" if forfeiture is None else f"{fine} (void)"
        paid = f"VOID: {void_reason}"
    return (
        str(cid),
        person,
        section,
        f"{format_day(offence_on)} (offence {number})",
        fine,
        format_day(court_on) if court_on else "",
        paid,
    )


# -- the reports on the seam --------------------------------------------------------------


def _step(request: ReportRequest, done: int, total: int = 2) -> None:
    if request.cancelled():
        raise Cancelled("the report is no longer wanted")
    request.progress(done, total)


def call_log_report(request: ReportRequest) -> ReportOutput:
    """``fieldops report calls``: the lines (the CSV), the PDF drawn when asked for."""
    from fieldops.reports.calls_registers import call_log_pdf
    from fieldops.services.registers import DrawnWhenAsked

    _step(request, 0)
    check_period(request.start, request.end)
    with request.db.read() as s, cancellable(s):
        lines = list(
            call_rows(
                s.connection(),
                request.start,
                request.end,
                request.profile,
                cancelled=request.cancelled,
            )
        )
    _step(request, 1)
    table = ReportTable(CALL_COLUMNS, lines)

    def draw() -> bytes:
        return call_log_pdf(CALL_COLUMNS, lines, request, note=NOTHING_WITHHELD)

    _step(request, 2)
    return DrawnWhenAsked(table, draw)


def citations_report(request: ReportRequest) -> ReportOutput:
    """``fieldops report citations``: the lines (the CSV), the PDF drawn when asked for."""
    from fieldops.reports.calls_registers import citations_pdf
    from fieldops.services.registers import DrawnWhenAsked

    _step(request, 0)
    check_period(request.start, request.end)
    lines: list[tuple[str, ...]] = []
    issued = paid = Decimal("0.00")
    with request.db.read() as s, cancellable(s):
        for cells, forfeiture, paid_part in citation_rows(
            s.connection(),
            request.start,
            request.end,
            request.profile,
            cancelled=request.cancelled,
        ):
            lines.append(cells)
            issued += forfeiture
            paid += paid_part
    _step(request, 1)
    table = ReportTable(CITATION_COLUMNS, lines)
    n = f"{len(lines)} citation" + ("" if len(lines) == 1 else "s")
    totals = ("", f"Total: {n}", "", "", _money(issued), "", f"{_money(paid)} paid")

    def draw() -> bytes:
        return citations_pdf(CITATION_COLUMNS, lines, totals, request, note=NOTHING_WITHHELD)

    _step(request, 2)
    return DrawnWhenAsked(table, draw)


REPORTS = (
    ReportKind(
        "calls",
        "Call log (58-534)",
        call_log_report,
        description="Every call received in the period: when, the kind, the address, the "
        "priority, the officer sent, the outcome and the follow-up.",
    ),
    ReportKind(
        "citations",
        "Citations register (58-534(b))",
        citations_report,
        description="Every citation issued in the period: the person cited, the section, "
        "the day of the offence, the forfeiture, the court date and whether it was paid.",
    ),
)
