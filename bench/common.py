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
    name: str
    seconds: float
    baseline_name: str
    baseline_seconds: float
    max_ratio: float

    @property
    def ratio(self) -> float:
        return self.seconds / self.baseline_seconds if self.baseline_seconds else float("inf")

    @property
    def ok(self) -> bool:
        return self.ratio <= self.max_ratio

    def line(self) -> str:
        mark = "ok  " if self.ok else "SLOW"
        return (
            f"{mark} {self.name:<48} {self.ratio:7.1f}x {self.baseline_name} "
            f"(limit {self.max_ratio:g}x; {self.seconds * 1000:.1f} ms vs "
            f"{self.baseline_seconds * 1000:.2f} ms)"
        )
