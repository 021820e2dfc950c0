"""Helpers shared by test modules (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from fieldops.errors import ValidationError

CHI = ZoneInfo("America/Chicago")


def local(y: int, m: int, d: int, hh: int = 10, mm: int = 0) -> datetime:
    """An aware instant in the city's time zone."""
    return datetime(y, m, d, hh, mm, tzinfo=CHI)


def images_besides_the_letterhead(pdf: bytes) -> list[str]:
    """Names of the images a PDF embeds other than the letterhead's badge.

    Every document prints the badge from resources/letterhead; anything else
    embedded (say, from an ``<img>`` tag in user text) is listed.
    """
    from io import BytesIO

    from PIL import Image
    from pypdf import PdfReader

    from fieldops import resources

    mark = Image.open(BytesIO(resources.read_bytes(resources.LETTERHEAD_MARK))).convert("RGBA")
    return [
        image.name
        for page in PdfReader(BytesIO(pdf)).pages
        for image in page.images
        if image.image.convert("RGBA").tobytes() != mark.tobytes()
    ]


def count_rows(db, model) -> int:
    """How many rows ``model``'s table holds."""
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(model))


def refused(call, field: str) -> ValidationError:
    """``call()`` raises a ValidationError naming ``field``; the error, for more checks."""
    with pytest.raises(ValidationError) as info:
        call()
    assert field in info.value.by_field(), info.value.by_field()
    return info.value
