"""Helpers shared by test modules (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

CHI = ZoneInfo("America/Chicago")


def local(y: int, m: int, d: int, hh: int = 10, mm: int = 0) -> datetime:
    """An aware instant in the city's time zone."""
    return datetime(y, m, d, hh, mm, tzinfo=CHI)
