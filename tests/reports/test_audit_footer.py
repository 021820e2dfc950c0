"""Every page of a report carries the audit trail's latest link when one is given."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from fieldops.reports.base import Document
from fieldops.services.audit import audit_head
from fieldops.services.context import Actor, audit

PRINTED = datetime(2026, 3, 12, 15, 30, tzinfo=UTC)


class _Long(Document):
    title = "Footer test"

    def story(self):
        return [self.text(f"Line {n}") for n in range(200)]


def _doc(head: str = "") -> Document:
    return _Long(
        jurisdiction="City of Riverton",
        tz=ZoneInfo("America/Chicago"),
        printed_at=PRINTED,
        audit_head=head,
    )


def test_the_latest_audit_link_is_on_every_page(db, read_pdf):
    with db.write() as s:
        for i in range(3):
            audit(s, Actor("opal"), "x", "e", i, after={"fee": Decimal("1.50")})
    head = audit_head(db)
    assert head.startswith("audit #3 ") and len(head.split()[-1]) == 12
    pages = read_pdf(_doc(head).render())
    assert len(pages) > 1
    for text in pages:
        assert head in text.replace("\n", " ")
    assert not any("audit #" in t for t in read_pdf(_doc().render()))
