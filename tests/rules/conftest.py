"""Shared fixture for the rules tests: the city profile shipped in the package."""

from __future__ import annotations

import pytest

from fieldops.rules import Profile


@pytest.fixture(scope="session")
def profile() -> Profile:
    return Profile.default()
