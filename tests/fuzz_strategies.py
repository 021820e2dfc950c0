"""Hostile input for the fuzz tests (issue 13, tests/services/test_fuzz_*.py).

Text mixes NUL, every other control character, lone surrogates, emoji (astral and
joined), right-to-left text and marks, combining marks, and 10,000-character runs;
money mixes huge, tiny, negative, NaN, infinite, float and text amounts; instants
mix naive, aware in several zones (a skipped and a repeated hour included), and the
ends of Python's calendar. ``records`` builds a form's fields mostly good, with up to
two hostile, so the database round trip is exercised as often as the refusal.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from fieldops.errors import ValidationError

# Each service test's examples write to a database (the fixture's, shared by them): a
# modest count keeps the file under a minute on both back ends. Validators are cheap.
FUZZ = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
FUZZ_PURE = settings(max_examples=100, deadline=None, database=None)

PIECES = [
    "",
    " ",
    "\x00",
    "\x07",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\n",
    "\t",
    "\r\n",
    "\ud800",
    "\udfff",
    "🐕",
    "👩‍⚕️",
    "🇺🇸",
    "\u05e9\u05dc\u05d5\u05dd",  # Hebrew
    "\u0645\u0631\u062d\u0628\u0627",  # Arabic
    "\u202e",  # right-to-left override
    "\u200f",  # right-to-left mark
    "e\u0301",  # e + combining acute
    "\ufeff",
    "O'Brien & <Sons>",
    "Zoë",
    "x" * 10_000,
    "y" * 199,
    "z" * 201,
    "=1+1",
]

# Any code point, surrogates and control characters included.
ANY_CHAR = st.characters(codec=None, categories=None)

hostile_text = st.one_of(
    st.text(ANY_CHAR, max_size=40),
    st.sampled_from(PIECES),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(ANY_CHAR, max_size=8)), max_size=4).map(
        "".join
    ),
)

# What a person could type that must be kept exactly: printable, any script, emoji.
printable_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=60
)

ZONES = [UTC, ZoneInfo("America/Chicago"), ZoneInfo("Asia/Kolkata"), timezone(timedelta(hours=14))]

hostile_instant = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),  # naive
    st.datetimes(
        min_value=datetime(1, 1, 2),
        max_value=datetime(9999, 12, 30),
        timezones=st.sampled_from(ZONES),
    ),
    st.datetimes(
        min_value=datetime(2020, 1, 1),
        max_value=datetime(2026, 11, 1),
        timezones=st.sampled_from(ZONES),
    ),
    st.sampled_from(
        [
            datetime(1, 1, 1, tzinfo=UTC),
            datetime(9999, 12, 31, 23, 59, tzinfo=UTC),
            datetime(1899, 12, 31, 23, 59, tzinfo=UTC),
            datetime(2200, 1, 1, tzinfo=UTC),
        ]
    ),
    st.just("2026-11-20 10:00"),
    st.just(date(2026, 11, 20)),
)

hostile_day = st.one_of(
    st.none(),
    st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31)),
    st.dates(min_value=date(2000, 1, 1), max_value=date(2026, 11, 1)),
    st.datetimes(timezones=st.just(UTC)),
    st.sampled_from(["2020-01-01", "", "yesterday", 20200101]),
)

hostile_money = st.one_of(
    st.decimals(allow_nan=True, allow_infinity=True),
    st.decimals(min_value=0, max_value=Decimal("1000000.00"), places=2),
    st.decimals(min_value=0, max_value=Decimal("1000"), places=3),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    hostile_text,
    st.sampled_from(
        [
            "1e30",
            "99999999999999999999.99",
            "92000000000000000.00",
            "1e-30",
            "$40.00",
            "1,000,000.00",
            "1,000,000.01",
            "-0.00",
            "0",
            "40",
            " 12.50 ",
            "NaN",
            "sNaN",
            "Infinity",
            "-Infinity",
        ]
    ),
)

hostile_id = st.one_of(
    st.none(),
    st.integers(min_value=-5, max_value=5),
    st.integers(min_value=2**31 - 2, max_value=2**70),
    st.just(True),
)


def only_validation_errors(call):
    """Run ``call``: its result, or None after a ValidationError (anything else fails)."""
    try:
        result = call()
    except ValidationError as exc:
        refused = exc
    else:
        event("accepted")
        return result
    event("refused")
    assert refused.errors and all(e.field and e.message for e in refused.errors)
    return None


# ------------------------------------------------------------- form records

good_text = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
    min_size=1,
    max_size=30,
)
past = st.datetimes(
    min_value=datetime(2020, 1, 1),
    max_value=datetime(2026, 10, 1),
    timezones=st.sampled_from(ZONES),
)
good_amount = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("5000"), places=2).map(str)


def records(good: dict[str, st.SearchStrategy], bad: dict[str, st.SearchStrategy]):
    """A form's fields: each good, except up to two (often none) drawn from ``bad``."""

    @st.composite
    def build(draw):
        hostile = draw(st.sets(st.sampled_from(sorted(bad)), max_size=2))
        event("all fields good" if not hostile else "hostile: " + ", ".join(sorted(hostile)))
        return {k: draw(bad[k] if k in hostile else good[k]) for k in good}

    return build()


# ------------------------------------------------------------- additions (issue 13, more verbs)


def only_refusals(call, *also):
    """Like ``only_validation_errors``, also allowing the ``also`` refusals (each a UserError
    subclass a test names, e.g. NotFoundError for an id no record has); None after one."""
    try:
        return only_validation_errors(call)
    except also as exc:
        refused = exc
    event(f"refused: {type(refused).__name__}")
    assert str(refused).strip(), "a refusal says why in words"
    return None


def recent(most_minutes: int):
    """An aware instant 1 to ``most_minutes`` minutes ago (in one of ``ZONES``), built when
    drawn so it stays in the past however long the test runs."""
    from fieldops.services.context import now

    return st.builds(
        lambda m, zone: (now() - timedelta(minutes=m)).astimezone(zone),
        st.integers(min_value=1, max_value=most_minutes),
        st.sampled_from(ZONES),
    )


# One line a person could type, with a hostile piece inside: kept or refused, never a crash.
hostile_words = st.one_of(hostile_text, good_text)

# The later fuzz files run a dozen examples a test: each example builds its own records.
FUZZ_FEW = settings(FUZZ, max_examples=10)
