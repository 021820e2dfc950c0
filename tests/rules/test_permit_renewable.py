"""``renewable_from``: a permit not renewed is still renewable exactly while its
renewal, for the next year, can be quoted (``permit_quote``) on the day."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fieldops.rules import PERMIT_KINDS, Profile, permit_quote, renewable_from


@given(
    year=st.integers(min_value=2000, max_value=2090),
    day=st.dates(min_value=date(2000, 1, 1), max_value=date(2095, 12, 31)),
    kind=st.sampled_from(sorted(PERMIT_KINDS)),
)
def test_renewable_exactly_while_the_renewal_can_be_quoted(year, day, kind):
    if day.year < year:
        return  # before the permit's own year ends nothing has lapsed
    try:
        permit_quote(kind, year + 1, day, Profile.default(), first=False)
        quotable = True
    except ValueError:
        quotable = False
    assert (year >= renewable_from(day)) == quotable


@pytest.mark.parametrize(
    ("day", "first_year"),
    [(date(2026, 12, 1), 2025), (date(2026, 1, 1), 2025), (date(2027, 1, 1), 2026)],
)
def test_the_first_renewable_year(day, first_year):
    assert renewable_from(day) == first_year


def test_a_day_that_is_no_date_is_refused():
    with pytest.raises(ValueError, match="day"):
        renewable_from("2026-12-01")  # type: ignore[arg-type]
