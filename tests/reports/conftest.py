"""Impoundment views built by hand (no database): aware UTC instants, Decimal money.

Times are picked around the 2026 change to daylight time in Chicago (Sun 8 Mar):
impounded Mon 2 Mar 20:05 UTC = 14:05 CST, released Mon 9 Mar 19:05 UTC = 14:05 CDT.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from io import BytesIO
from zoneinfo import ZoneInfo

import pytest
from pypdf import PdfReader

from fieldops.services.impound_views import (
    AnimalDescription,
    DispositionView,
    EvidenceView,
    FeeLine,
    FeeSummary,
    ImpoundView,
    PartyView,
    PaymentLineView,
    PaymentView,
)

CHICAGO = ZoneInfo("America/Chicago")
PRINTED_AT = datetime(2026, 3, 12, 15, 30, tzinfo=UTC)  # Thu 12 Mar 2026, 10:30 CDT
JURISDICTION = "City of Riverton Animal Control"

TRICKY_NAME = 'O\'Brien & <Sons> "Rex"'
IMG_TAG = '<img src="file:///etc/passwd">'


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


OWNER = PartyView(
    id=7,
    full_name=TRICKY_NAME,
    address="12 Elm St & 3rd Ave, Riverton WI 53000",
    phone="608-555-0101",
)
ADOPTER = PartyView(id=8, full_name="Dana Whitfield", address="400 Lake Rd\nRiverton WI 53001")

REX = AnimalDescription(
    id=3,
    name="Rex <the dog>",
    species="dog",
    species_detail="",
    breed="Beagle mix",
    colour="Tan & white",
    sex="male",
    altered=True,
    approximate_age="about 4 years",
    markings="Notched left ear; white blaze",
    microchip="985112003456789",
    licence="RIV-2026-0412",
)

HOLD_WHY = {
    "last_claim_day": "Owner may claim until Mon 9 Mar 2026: 7 days after impoundment "
    "(city code 58-526(a), (b)(2)a).",
    "release_to_others_from": "May be adopted by someone else or humanely destroyed from the "
    "start of Tue 10 Mar 2026 (12:00 AM CDT).",
}

PAYMENTS = (
    PaymentView(
        id=1,
        paid_at=utc(2026, 3, 9, 18, 50),
        payer=OWNER,
        method="card",
        receipt_number="R-1001",
        recorded_by="opal",
        lines=(
            PaymentLineView("impound", "", Decimal("35.00")),
            PaymentLineView("boarding", "Boarding, 7 days at $12.50", Decimal("87.50")),
            PaymentLineView("licence", "Dog licence 2026", Decimal("1250.00")),
        ),
    ),
    PaymentView(
        id=2,
        paid_at=utc(2026, 3, 9, 18, 58),
        payer=None,
        method="cash",
        receipt_number="R-1002",
        recorded_by="opal",
        lines=(PaymentLineView("rabies_prepayment", "", Decimal("20.00")),),
    ),
)

EVIDENCE = (
    EvidenceView("name_address", "Name and address of the person", "Driver licence seen"),
    EvidenceView("rabies", "Proof of rabies vaccination", "Certificate 2025-118, expires 2027"),
    EvidenceView("fees_paid", "Boarding and impoundment fees paid", "Receipts R-1001, R-1002"),
    EvidenceView(
        "no_open_quarantine",
        "No open bite quarantine",
        "",
        overridden=True,
        override_reason="Quarantine served at vet <clinic> & released",
        override_by="sam",
    ),
)

FEES = FeeSummary(
    as_of=utc(2026, 3, 9, 18, 45),
    to_owner=True,
    lines=(FeeLine("Impound fee", Decimal("35.00")), FeeLine("Boarding, 7 days", Decimal("87.50"))),
    total=Decimal("122.50"),
    paid=Decimal("1392.50"),
    repeat_of=None,
    repeat_note="",
    schedule="Resolution 2024-17",
)


def _release(**changes: object) -> DispositionView:
    base = DispositionView(
        id=50,
        kind="reclaimed",
        at=utc(2026, 3, 9, 19, 5),
        recipient=OWNER,
        to_owner=True,
        transfer_to="",
        notes="",
        recorded_by="opal",
        preserve_until=None,
        hopeless_or_threat=False,
        evidence=EVIDENCE,
    )
    return replace(base, **changes)


def _view(**changes: object) -> ImpoundView:
    base = ImpoundView(
        id=1042,
        animal=REX,
        impounded_at=utc(2026, 3, 2, 20, 5),
        custody_day=date(2026, 3, 2),
        found_place="Behind 55 Mill St",
        found_at=utc(2026, 3, 2, 19, 40),
        officer="Ofc. Tran",
        reason="at_large",
        reason_detail="running in traffic",
        bit_person=False,
        surrendered=False,
        owner=OWNER,
        kennel="K-7",
        notes="Friendly; pulls on lead.",
        last_claim_day=date(2026, 3, 9),
        release_to_others_from=utc(2026, 3, 10, 5, 0),
        hold_why=HOLD_WHY,
        repeat_of=None,
        repeat_custody_day=None,
        disposition=_release(),
        payments=PAYMENTS,
        fees=FEES,
        has_photo=True,
        recorded_by="opal",
    )
    return replace(base, **changes)


@pytest.fixture
def make_view() -> Callable[..., ImpoundView]:
    """ImpoundView factory: ``make_view(id=..., disposition=...)``."""
    return _view


@pytest.fixture
def make_disposition() -> Callable[..., DispositionView]:
    return _release


@pytest.fixture
def released_view() -> ImpoundView:
    return _view()


@pytest.fixture
def adopted_view() -> ImpoundView:
    return _view(
        id=1043,
        owner=None,
        disposition=_release(
            id=51, kind="adopted", recipient=ADOPTER, to_owner=False, at=utc(2026, 3, 11, 16, 0)
        ),
        payments=(
            PaymentView(
                id=3,
                paid_at=utc(2026, 3, 11, 15, 50),
                payer=ADOPTER,
                method="check",
                receipt_number="R-1003",
                recorded_by="opal",
                lines=(PaymentLineView("adoption", "", Decimal("75.00")),),
            ),
        ),
        fees=None,
    )


@pytest.fixture
def custody_view() -> ImpoundView:
    return _view(id=1044, disposition=None, payments=(), fees=None, owner=None)


@pytest.fixture
def doc_args() -> dict[str, object]:
    return {"jurisdiction": JURISDICTION, "tz": CHICAGO, "printed_at": PRINTED_AT}


def pages_text(pdf: bytes) -> list[str]:
    """Each page's text, whitespace collapsed so wrapped lines read as one."""
    reader = PdfReader(BytesIO(pdf))
    return [re.sub(r"\s+", " ", page.extract_text() or "") for page in reader.pages]


@pytest.fixture
def read_pdf() -> Callable[[bytes], list[str]]:
    return pages_text
