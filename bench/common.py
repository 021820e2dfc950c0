"""Timing helpers and the results table: medians of repeated runs, each figure
beside a baseline measured in the same run (the machines are shared and noisy)."""

from __future__ import annotations

import math
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: A figure that must not grow with the table may grow at most this much from 100k to 1M.
MAX_GROWTH = 2.0


def median_time(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


@dataclass
class Result:
    """One figure of the benchmark's table.

    A time (``unit="s"``) is met when it is within ``max_ratio`` of the
    baseline measured in the same run and, when ``max_seconds`` is set, under
    that too (``max_ratio=inf``: only the absolute target counts). A size
    (``unit="MB"``) compares ``seconds`` (the value) with ``max_value`` only;
    its baseline is for reading.

    ``flat``: the figure must not grow with the table (a list's first page, a
    count); the growth table flags it when the largest database's value is more
    than ``MAX_GROWTH`` times the smallest's. ``None``: decided by the name
    (``"first page"`` in it). ``size`` is the database's size (impoundments),
    set by the harness."""

    name: str
    seconds: float
    baseline_name: str
    baseline_seconds: float
    max_ratio: float
    max_seconds: float | None = None
    unit: str = "s"
    max_value: float | None = None
    flat: bool | None = None
    size: int | None = None

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds if self.baseline_seconds else float("inf")

    @property
    def must_not_grow(self) -> bool:
        return self.flat if self.flat is not None else "first page" in self.name.lower()

    @property
    def for_reading(self) -> bool:
        """A figure with no target of its own (a floor shown beside the others)."""
        if self.unit != "s":
            return self.max_value is None
        return math.isinf(self.max_ratio) and self.max_seconds is None

    @property
    def ok(self) -> bool:
        if self.unit != "s":
            return self.max_value is None or self.seconds <= self.max_value
        if self.max_seconds is not None and self.seconds > self.max_seconds:
            return False
        return math.isinf(self.max_ratio) or self.ratio <= self.max_ratio

    def target(self) -> str:
        if self.for_reading:
            return "for reading"
        if self.unit != "s":
            return f"< {self.max_value:g} {self.unit}" if self.max_value is not None else ""
        parts = [] if math.isinf(self.max_ratio) else [f"<= {self.max_ratio:g}x"]
        if self.max_seconds is not None:
            parts.append(f"< {_time(self.max_seconds)}")
        return ", ".join(parts)

    def value(self) -> str:
        return _time(self.seconds) if self.unit == "s" else f"{self.seconds:.1f} {self.unit}"

    def baseline(self) -> str:
        if self.unit == "s":
            return f"{_time(self.baseline_seconds)} ({self.baseline_name})"
        return f"{self.baseline_seconds:.1f} {self.unit} ({self.baseline_name})"

    def line(self) -> str:
        mark = "    " if self.for_reading else "ok  " if self.ok else "MISS"
        return (
            f"{mark} {self.name:<52} {self.value():>10}  {self.ratio:7.1f}x  "
            f"(target {self.target()}; {self.baseline()})"
        )


def _time(seconds: float) -> str:
    if seconds >= 10:
        return f"{seconds:.0f} s"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms" if seconds >= 0.001 else f"{seconds * 1000:.2f} ms"


def _size(n: int | None) -> str:
    if n is None:
        return ""
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else f"{n // 1000}k"


def table(results: Sequence[tuple[str, Result]]) -> str:
    """One table of every figure: (suite, result) pairs, in the order run."""
    head = ("figure", "size", "value", "baseline", "ratio", "target", "met")
    rows = [
        (
            f"{suite}: {r.name}",
            _size(r.size),
            r.value(),
            r.baseline(),
            f"{r.ratio:.1f}x" if r.unit == "s" else "",
            r.target(),
            "" if r.for_reading else "yes" if r.ok else "NO",
        )
        for suite, r in results
    ]
    return _grid(head, rows)


@dataclass(frozen=True)
class Growth:
    name: str
    small: Result
    large: Result

    @property
    def growth(self) -> float:
        return self.large.seconds / self.small.seconds if self.small.seconds else float("inf")

    @property
    def ok(self) -> bool:
        return not self.large.must_not_grow or self.growth <= MAX_GROWTH


#: The row count a list's figure names before its colon ("calls 50,000: all"), which differs
#: between the sizes of one figure.
_COUNT = re.compile(r"^([^:]*?(?:^|[ (]))\d[\d,]*(?=:|[ )][^:]*:)")


def growth_key(suite: str, name: str) -> str:
    """One figure's name at every size: the row count before the colon made "N"."""
    return f"{suite}: {_COUNT.sub(lambda m: m.group(1) + 'N', name, count=1)}"


def growth(results: Sequence[tuple[str, Result]]) -> list[Growth]:
    """Every time figure measured at two sizes: the smallest beside the largest (a list's
    figures are paired though each names its own row count)."""
    by_name: dict[str, list[Result]] = {}
    for suite, r in results:
        if r.unit == "s" and r.size is not None:
            by_name.setdefault(growth_key(suite, r.name), []).append(r)
    out = []
    for name, rs in by_name.items():
        sizes = sorted(rs, key=lambda r: r.size or 0)
        if len(sizes) > 1 and sizes[0].size != sizes[-1].size:
            out.append(Growth(name, sizes[0], sizes[-1]))
    return out


def growth_table(rows: Sequence[Growth]) -> str:
    if not rows:
        return ""
    small, large = _size(rows[0].small.size), _size(rows[0].large.size)
    head = ("figure", small, large, f"{large}/{small}", "must not grow", "met")
    return _grid(
        head,
        [
            (
                g.name,
                g.small.value(),
                g.large.value(),
                f"{g.growth:.1f}x",
                f"<= {MAX_GROWTH:g}x" if g.large.must_not_grow else "",
                "yes" if g.ok else "NO",
            )
            for g in rows
        ],
    )


def _grid(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=False)]
    lines = [" | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    lines.append("-|-".join("-" * w for w in widths))
    lines += [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(lines)
