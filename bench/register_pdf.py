"""The 58-528 register of 10,000 impoundments from the database to the PDF.

What a supervisor waits for: the rows gathered through
``fieldops.services.registers.impound_register_rows`` from the 30,000-impoundment
database of bench/register.py (the same file, kept between runs), then rendered
by ``fieldops.reports.impound_register``. Baseline, measured in the same run:
one bare ReportLab table of the same rows (the same seven columns as plain
strings, made from the gathered rows before timing) with its header repeated.
Target (issue 11): the whole within 1.0x the bare table. The gathering and the
rendering are also timed apart, as ratios to the same baseline.
"""

from __future__ import annotations

from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from zoneinfo import ZoneInfo

from bench.common import Result, median_time

CHICAGO = ZoneInfo("America/Chicago")
HEADER = [
    "No.",
    "Impounded",
    "Description",
    "Disposition",
    "Released to (name, address)",
    "Delivered / disposed",
    "Fees paid",
]


def _plain(rows) -> list[list[str]]:
    from fieldops.reports.base import fmt_local_date, money

    out = []
    for r in rows:
        d = r.disposition
        out.append(
            [
                str(r.id),
                fmt_local_date(r.impounded_at, CHICAGO),
                r.animal.summary,
                d.kind if d else "In custody",
                f"{d.recipient.full_name}, {d.recipient.address}" if d and d.recipient else "",
                fmt_local_date(d.at, CHICAGO) if d else "",
                money(r.fees_paid_total),
            ]
        )
    return out


def run(path: Path) -> list[Result]:
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.platypus import SimpleDocTemplate, Table

    from bench.register import PER_PERIOD, PERIOD, build
    from fieldops.reports import impound_register
    from fieldops.services.registers import impound_register_rows

    db = build(path)
    rows = impound_register_rows(db, *PERIOD)
    assert len(rows) == PER_PERIOD, len(rows)
    plain = [HEADER, *_plain(rows)]
    printed_at = datetime(2026, 4, 7, 15, tzinfo=UTC)

    def render(gathered) -> bytes:
        return impound_register(
            gathered,
            period_start=PERIOD[0],
            period_end=PERIOD[1],
            jurisdiction="City of Riverton Animal Control",
            tz=CHICAGO,
            printed_at=printed_at,
        )

    def whole() -> None:
        render(impound_register_rows(db, *PERIOD))

    def baseline() -> None:
        buf = BytesIO()
        SimpleDocTemplate(buf, pagesize=landscape(letter)).build([Table(plain, repeatRows=1)])

    base = median_time(baseline, repeat=3)
    results = [
        Result(
            f"register of {len(rows):,}: database to PDF",
            median_time(whole, repeat=3),
            "one bare ReportLab table, same rows",
            base,
            1.0,
        ),
        Result(
            f"  of which gathering {len(rows):,} rows",
            median_time(lambda: impound_register_rows(db, *PERIOD), repeat=3),
            "one bare ReportLab table, same rows",
            base,
            1.0,
        ),
        Result(
            f"  of which rendering {len(rows):,} rows",
            median_time(lambda: render(rows), repeat=3),
            "one bare ReportLab table, same rows",
            base,
            1.0,
        ),
    ]
    db.dispose()
    return results
