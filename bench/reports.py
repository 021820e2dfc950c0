"""The supervisor's register of 10,000 impoundments against plain ReportLab.

Baseline (TOOLCHAIN.md): one ReportLab table of 10,000 rows x 8 columns of
plain strings, rendered in this run. The register adds wrapping, headers,
totals and page numbers; it must stay within a small multiple.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from io import BytesIO
from zoneinfo import ZoneInfo

from bench.common import Result, median_time

ROWS = 10_000


def _rows():
    from fieldops.services.impound_views import AnimalDescription, PartyView
    from fieldops.services.register_views import RegisterDisposition, RegisterRow

    owner = PartyView(1, "Ana Ruiz", "12 Elm St, Madison, 53703")
    start = datetime(2026, 1, 1, 15, tzinfo=UTC)
    out = []
    for n in range(ROWS):
        at = start + timedelta(minutes=50 * n)
        animal = AnimalDescription(
            n,
            f"Rex {n}",
            "dog",
            "",
            "Beagle mix",
            "tan and white",
            "male",
            True,
            "about 3 years",
            "white blaze",
            "",
            "",
        )
        disp = (
            RegisterDisposition("reclaimed", at + timedelta(days=2), owner, "") if n % 3 else None
        )
        paid = (("impound", Decimal("40.00")), ("boarding", Decimal("30.00"))) if disp else ()
        out.append(RegisterRow(n, at, animal, disp, paid))
    return out


def run() -> list[Result]:
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.platypus import SimpleDocTemplate, Table

    from fieldops.reports import impound_register

    rows = _rows()
    plain = [
        [
            str(n),
            "Mon 2 Mar 2026",
            f"Rex {n}, dog, Beagle mix",
            "Reclaimed by owner",
            "Ana Ruiz, 12 Elm St",
            "Wed 4 Mar 2026",
            "$70.00",
            "x",
        ]
        for n in range(ROWS)
    ]

    def baseline():
        buf = BytesIO()
        SimpleDocTemplate(buf, pagesize=landscape(letter)).build([Table(plain, repeatRows=1)])

    def register():
        impound_register(
            rows,
            period_start=date(2026, 1, 1),
            period_end=date(2026, 12, 31),
            jurisdiction="City",
            tz=ZoneInfo("America/Chicago"),
            printed_at=datetime(2026, 12, 31, tzinfo=UTC),
        )

    return [
        Result(
            f"register of {ROWS:,} impoundments",
            median_time(register, repeat=1),
            "one plain ReportLab table",
            median_time(baseline, repeat=1),
            3,
        )
    ]
