"""Printed documents carry the letterhead: the badge beside the jurisdiction, first page only."""

from __future__ import annotations

from datetime import UTC, datetime
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.platypus import PageBreak

from fieldops import resources
from fieldops.reports import base
from fieldops.reports.base import Document

CHICAGO = ZoneInfo("America/Chicago")


class TwoPages(Document):
    title = "Letterhead check"

    def subtitle(self) -> str:
        return "No. 1"

    def story(self):
        return [self.text("First page."), PageBreak(), self.text("Second page.")]


def render() -> PdfReader:
    doc = TwoPages(
        jurisdiction="City of Riverton Animal Control",
        tz=CHICAGO,
        printed_at=datetime(2026, 3, 12, 15, 30, tzinfo=UTC),
    )
    return PdfReader(BytesIO(doc.render()))


def images(page) -> list[tuple[int, int]]:
    return [(img.image.width, img.image.height) for img in page.images]


@pytest.fixture(autouse=True)
def fresh_mark():
    base.letterhead_mark.cache_clear()
    yield
    base.letterhead_mark.cache_clear()


def test_the_first_page_carries_the_badge_from_resources():
    reader = render()
    mark = Image.open(BytesIO(resources.read_bytes(resources.LETTERHEAD_MARK)))
    assert images(reader.pages[0]) == [mark.size]
    first = reader.pages[0].extract_text()
    assert "City of Riverton Animal Control" in first and "Letterhead check" in first


def test_later_pages_keep_their_one_line_header():
    reader = render()
    assert len(reader.pages) == 2
    assert images(reader.pages[1]) == []
    assert "(continued)" in reader.pages[1].extract_text()


def test_a_missing_badge_still_prints_the_document(monkeypatch):
    def missing(name: str) -> bytes:
        raise resources.ResourceMissing(name)

    monkeypatch.setattr(resources, "read_bytes", missing)
    reader = render()
    assert images(reader.pages[0]) == []
    assert "City of Riverton Animal Control" in reader.pages[0].extract_text()
