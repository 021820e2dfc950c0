"""Column types that keep the app's two invariants at the storage boundary.

Instants are aware and stored in UTC; money is an exact ``Decimal`` stored as
integer cents (SQLite has no decimal type and would round-trip through float).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import BigInteger, DateTime, Dialect
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """An aware datetime, stored as UTC; a naive value is a programming error."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r} cannot be stored; give it a time zone")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> int:
    if not isinstance(amount, Decimal):
        raise TypeError(f"money must be a Decimal, not {type(amount).__name__}")
    return int((amount.quantize(CENT, rounding=ROUND_HALF_UP) * 100).to_integral_value())


class Money(TypeDecorator[Decimal]):
    """A Decimal amount stored exactly as integer cents."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> int | None:
        return None if value is None else to_cents(value)

    def process_result_value(self, value: int | None, dialect: Dialect) -> Decimal | None:
        return None if value is None else (Decimal(value) / 100).quantize(CENT)
