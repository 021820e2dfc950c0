"""Hypothesis fuzzes every validator (issue 13): what one accepts, every column, the
rules' local-time arithmetic, the operating system and a PDF keep as it is."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from fuzz_strategies import (
    FUZZ_PURE,
    hostile_day,
    hostile_instant,
    hostile_money,
    hostile_text,
    printable_text,
)
from hypothesis import given
from hypothesis import strategies as st

from fieldops.db.flush_net import BIGINT_MAX, bad_character
from fieldops.db.models import Person
from fieldops.db.types import to_cents
from fieldops.errors import Collector, ValidationError
from fieldops.rules import Profile, to_local
from fieldops.services import validate as v

LIMITS = st.sampled_from([Person.__table__.c.full_name, Person.__table__.c.state, 1, 4000])


@FUZZ_PURE
@given(value=st.one_of(hostile_text, st.integers(), st.none()), limit=LIMITS)
def test_text_accepts_only_what_every_column_and_pdf_keeps(value, limit):
    c = Collector()
    ok = v.text(c, "f", value, "Field", limit)
    most, multiline = (limit, True) if isinstance(limit, int) else (limit.type.length, False)
    if not ok:
        with pytest.raises(ValidationError) as info:
            c.raise_if_any()
        assert info.value.field == "f"
        return
    c.raise_if_any()
    assert ok and isinstance(value, str) and len(value) <= most
    assert bad_character(value, multiline=multiline) is None
    value.encode("utf-8")  # no lone surrogate
    assert "\x00" not in value
    if not multiline:
        assert not any(ch in value for ch in "\n\r\t")


@FUZZ_PURE
@given(value=hostile_money)
def test_money_is_finite_in_range_to_the_cent_or_refused(value):
    c = Collector()
    amount = v.money(c, "amount", value)
    if amount is None:
        with pytest.raises(ValidationError):
            c.raise_if_any()
        return
    c.raise_if_any()
    assert isinstance(amount, Decimal) and amount.is_finite()
    assert Decimal(0) <= amount <= v.MONEY_CAP
    assert amount == amount.quantize(Decimal("0.01"))
    assert to_cents(amount) <= BIGINT_MAX
    assert not isinstance(value, float)


@FUZZ_PURE
@given(value=hostile_instant)
def test_an_accepted_instant_is_aware_in_range_and_the_rules_can_use_it(value):
    c = Collector()
    if not v.instant(c, "at", value, "When"):
        with pytest.raises(ValidationError):
            c.raise_if_any()
        return
    c.raise_if_any()
    if value is not None:
        assert isinstance(value, datetime) and value.utcoffset() is not None
        to_local(value, Profile.default())  # no overflow at either end
        back = value.astimezone(UTC).astimezone(value.tzinfo)  # as read back from the database
        assert back.replace(tzinfo=None, fold=0) == value.replace(tzinfo=None, fold=0)


@FUZZ_PURE
@given(value=hostile_day)
def test_an_accepted_day_is_a_date_in_range(value):
    c = Collector()
    if not v.day(c, "on", value, "The day"):
        with pytest.raises(ValidationError):
            c.raise_if_any()
        return
    assert value is None or (type(value) is date and 1900 <= value.year < 2200)
    if value is not None:
        value + timedelta(days=400)  # the rules' periods do not overflow


@FUZZ_PURE
@given(name=st.one_of(hostile_text, printable_text.map(lambda t: f"/tmp/{t}.pdf")))
def test_a_report_file_name_accepted_can_be_made_by_the_os(name):
    if not _accepted(name):
        return
    os.fsencode(name)  # no NUL, no surrogate: the OS takes it
    assert "\x00" not in name and "\n" not in name


def _accepted(name: str) -> bool:
    from fieldops.services.reports_run import check_file_name

    try:
        check_file_name(name)
    except ValidationError:
        return False
    return True
