"""Timing helpers: medians of repeated runs, reported as ratios to a baseline
measured in the same run (the machines are shared and noisy)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


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
    that too. A size (``unit="MB"``) compares ``seconds`` (the value) with
    ``max_value`` only; its baseline is for reading."""

    name: str
    seconds: float
    baseline_name: str
    baseline_seconds: float
    max_ratio: float
    max_seconds: float | None = None
    unit: str = "s"
    max_value: float | None = None

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds if self.baseline_seconds else float("inf")

    @property
    def ok(self) -> bool:
        if self.unit != "s":
            return self.max_value is None or self.seconds <= self.max_value
        if self.max_seconds is not None and self.seconds > self.max_seconds:
            return False
        return self.ratio <= self.max_ratio

    def target(self) -> str:
        if self.unit != "s":
            return f"< {self.max_value:g} {self.unit}" if self.max_value is not None else ""
        absolute = f", < {self.max_seconds * 1000:g} ms" if self.max_seconds is not None else ""
        return f"<= {self.max_ratio:g}x{absolute}"

    def line(self) -> str:
        mark = "ok  " if self.ok else "SLOW"
        if self.unit != "s":
            return (
                f"{mark} {self.name:<48} {self.seconds:9.1f} {self.unit} "
                f"(target {self.target()}; {self.baseline_name} "
                f"{self.baseline_seconds:.1f} {self.unit})"
            )
        return (
            f"{mark} {self.name:<48} {self.ratio:7.1f}x {self.baseline_name} "
            f"(target {self.target()}; {self.seconds * 1000:.1f} ms vs "
            f"{self.baseline_seconds * 1000:.2f} ms)"
        )
