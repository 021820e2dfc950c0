"""Field checks shared by the services' input validation."""

from __future__ import annotations

import re
from datetime import date

from fieldops.errors import Collector

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
POSTAL = re.compile(r"^\d{5}(-\d{4})?$")
MICROCHIP = re.compile(r"^[0-9A-Za-z]{9,15}$")


def clean(text: str | None) -> str:
    return " ".join((text or "").split())


# A form label that is not a noun ("Transferred to:") makes no sentence of
# "... is required": these say what to do, and what the field is, in words.
_SENTENCES = {
    "Transferred to": (
        "Say where the animal was transferred to.",
        "The place the animal was transferred to",
    ),
}


def _missing(label: str) -> str:
    return _SENTENCES.get(label, (f"{label} is required.", ""))[0]


def _noun(label: str) -> str:
    return _SENTENCES.get(label, ("", ""))[1] or label


def required(c: Collector, field: str, value: str, label: str, max_len: int) -> None:
    if not value:
        c.add(field, _missing(label))
    elif len(value) > max_len:
        c.add(field, f"{_noun(label)} is too long (at most {max_len} characters).")


def optional_len(c: Collector, field: str, value: str, label: str, max_len: int) -> None:
    if len(value) > max_len:
        c.add(field, f"{_noun(label)} is too long (at most {max_len} characters).")


def phone(c: Collector, field: str, value: str) -> None:
    if not value:
        return
    digits = sum(ch.isdigit() for ch in value)
    if re.search(r"[^\d\s().+\-x]", value) or not 7 <= digits <= 15:
        c.add(field, "Phone must be a number of 7 to 15 digits, e.g. 608-555-0142.")


def email(c: Collector, field: str, value: str) -> None:
    if value and not EMAIL.match(value):
        c.add(field, "E-mail must look like name@example.org.")


def postal_code(c: Collector, field: str, value: str) -> None:
    if value and not POSTAL.match(value):
        c.add(field, "ZIP code must be 5 digits, or ZIP+4 like 53703-1234.")


def not_future(c: Collector, field: str, value: date | None, label: str, today: date) -> None:
    if value is not None and value > today:
        c.add(field, f"{label} cannot be in the future.")
