"""Shared fixtures for the rules tests: the shipped city profile and local instants."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from fieldops.rules import Profile

CHICAGO = ZoneInfo("America/Chicago")


@pytest.fixture(scope="session")
def profile() -> Profile:
    return Profile.default()


@pytest.fixture(scope="session")
def local() -> Callable[..., datetime]:
    """local(2026, 3, 2, 10, 15) -> an aware datetime in America/Chicago."""

    def make(year: int, month: int, day: int, hour: int = 12, minute: int = 0) -> datetime:
        return datetime(year, month, day, hour, minute, tzinfo=CHICAGO)

    return make
