"""Words for what the audit trail stores as codes: field labels, code words, money, instants.

Part of ``fieldops.services.history`` (which re-exports these names).
"""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from fieldops.services.impound_views import (
    DISPOSITIONS,
    PAYMENT_KINDS,
    PAYMENT_METHODS,
    REASONS,
)

PERSON_KEYS = frozenset({"owner_id", "recipient_id", "payer_id", "person_id"})
RECORD_KEYS = frozenset({"impoundment", "disposition", "payment", "repeat_of_id"})
MONEY_WORDS = ("amount", "fee", "total", "impound", "boarding", "adoption")

FIELD_LABELS = {
    "full_name": "name",
    "postal_code": "ZIP code",
    "in_city": "lives inside the city",
    "email": "e-mail",
    "is_veterinarian": "veterinarian",
    "clinic_id": "clinic",
    "species_detail": "kind of animal",
    "birth_date": "birth date",
    "licence_number": "licence",
    "licence_year": "licence year",
    "owner_id": "owner",
    "recipient_id": "recipient",
    "payer_id": "paid by",
    "animal_id": "animal",
    "impounded_at": "impounded",
    "last_claim_day": "owner may claim until",
    "repeat_of_id": "repeat of impoundment",
    "bit_person": "bit a person",
    "receipt_number": "receipt",
    "to_owner": "to the owner",
    "transfer_to": "transferred to",
    "hopeless_or_threat": "hopelessly injured or a threat",
    "preserve_until": "keep the body until",
    "at": "when",
    "effective_on": "in force from",
    "boarding_per_day": "boarding per day",
}

CODE_WORDS: dict[str, dict[str, str]] = {
    "reason": REASONS,
    "kind": {**DISPOSITIONS, **PAYMENT_KINDS},
    "method": PAYMENT_METHODS,
}


def field_label(key: str) -> str:
    """A stored key as a word: "postal_code" -> "ZIP code", "owner_id" -> "owner"."""
    if key in FIELD_LABELS:
        return FIELD_LABELS[key]
    key = key[:-3] if key.endswith("_id") else key
    return key.replace("_", " ")


def money(value: Any) -> str:
    amount = _decimal(value)
    if amount is None:
        return str(value)
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"


_ISO_INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _instant(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else None
    if isinstance(value, str) and _ISO_INSTANT.match(value):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return None
        return moment if moment.tzinfo is not None else None
    return None


def _day(value: Any) -> date | None:
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and _ISO_DAY.match(value):
        try:
            return date.fromisoformat(value)
        except ValueError:
            return None
    return None


def _decimal(value: Any) -> Decimal | None:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
