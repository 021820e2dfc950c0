"""A year's activity summary on the generated city: at most 2 s, in SQL.

The summary's sections (``fieldops.modules.activity_sections``: the pound's
intakes, dispositions, days held, repeats and fees, beside a year earlier) for
2025 on the city of ``bench.generate`` (at 1,000,000 impoundments over ten
years: about 100,000 a year, one disposition in fifty corrected, payments and
their lines). The limit is the issue's absolute 2 s (a ratio to 2 s below);
the statement count is printed beside, and a month's must be the same as the
year's.
"""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

from sqlalchemy import event

from bench.common import Result

YEAR = (date(2025, 1, 1), date(2025, 12, 31))
MONTH = (date(2025, 3, 1), date(2025, 3, 31))
LIMIT_SECONDS = 2.0


def run(path: Path, size: int) -> list[Result]:
    from fieldops.db.engine import Database
    from fieldops.modules import activity_sections

    db = Database(f"sqlite:///{path}")
    statements: list[str] = []

    def count(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    activity_sections(db, *MONTH)  # also warms the file cache
    month = len(statements)
    times, cpu = [], []
    for _ in range(5):
        statements.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        sections = activity_sections(db, *YEAR)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    year = len(statements)
    event.remove(db.engine, "before_cursor_execute", count)
    intakes = next(s for s in sections if s.title.startswith("Pound")).figures[0]
    print(
        f"   activity summary {YEAR[0]}..{YEAR[1]}: {intakes.value:,} impoundments beside "
        f"{intakes.year_earlier:,} a year earlier; {year} statements for the year, "
        f"{month} for a month; runs {', '.join(f'{t:.2f} s' for t in times)} "
        f"(CPU {', '.join(f'{t:.2f}' for t in cpu)}: more wall than CPU is a busy machine)"
    )
    assert year == month, (year, month)
    db.dispose()
    return [
        Result(
            f"activity summary of a year ({year} statements)",
            sorted(times)[len(times) // 2],
            "the 2 s the issue allows",
            LIMIT_SECONDS,
            1.0,
        )
    ]
