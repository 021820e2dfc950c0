"""The receipt handed over at release (city code 58-526(b), 58-528)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from support import images_besides_the_letterhead

from fieldops.reports import release_receipt
from fieldops.reports.base import unicode_font
from fieldops.services.impound_views import PartyView, PaymentLineView, PaymentView

TRICKY = 'O\'Brien & <Sons> "Rex"'
IMG = '<img src="file:///etc/passwd">'


@pytest.fixture
def receipt_text(released_view, doc_args, read_pdf):
    pages = read_pdf(release_receipt(released_view, **doc_args))
    return " ".join(pages)


def test_says_what_was_released_when_and_to_whom(receipt_text):
    t = receipt_text
    assert "Receipt for release of impounded animal" in t
    assert "City of Riverton Animal Control" in t
    assert "Impoundment no. 1042" in t
    assert "Released as Reclaimed by owner" in t
    assert "Impounded Mon 2 Mar 2026 2:05 PM CST" in t
    assert "Released (delivered) Mon 9 Mar 2026 2:05 PM CDT" in t
    assert f"Released to {TRICKY} 12 Elm St & 3rd Ave, Riverton WI 53000" in t
    assert "The owner, or the owner's representative" in t


def test_describes_the_animal(receipt_text):
    for field in (
        "Rex <the dog>",
        "Beagle mix",
        "Tan & white",
        "985112003456789",
        "RIV-2026-0412",
        "Notched left ear; white blaze",
        "about 4 years",
    ):
        assert field in receipt_text


def test_lists_every_payment_line_method_receipt_and_the_total(receipt_text):
    t = receipt_text
    assert "R-1001 Mon 9 Mar 2026 1:50 PM CDT by " + TRICKY + " Card Impound fee $35.00" in t
    assert "Boarding Boarding, 7 days at $12.50 $87.50" in t
    assert "Dog licence Dog licence 2026 $1,250.00" in t
    assert "Total of this payment $1,372.50" in t
    assert "R-1002 Mon 9 Mar 2026 1:58 PM CDT Cash Rabies vaccination (prepaid) $20.00" in t
    assert "Total paid $1,392.50" in t
    assert "Fees assessed $122.50" in t
    assert "Balance due $0.00" in t


def test_shows_the_evidence_and_marks_overrides(receipt_text):
    t = receipt_text
    assert "Name and address of the person Driver licence seen" in t
    assert "Proof of rabies vaccination Certificate 2025-118, expires 2027" in t
    assert (
        "No open bite quarantine OVERRIDDEN by sam: Quarantine served at vet <clinic> & released"
        in t
    )


def test_cites_the_code_and_has_signature_lines(receipt_text):
    t = receipt_text
    assert "58-526" in t and "58-528" in t
    assert "Signature of the person receiving the animal " + TRICKY in t
    assert "Signature for the pound operator opal" in t
    assert "Page 1 of 1" in t


def test_adoption_receipt_names_the_new_owner(adopted_view, doc_args, read_pdf):
    t = " ".join(read_pdf(release_receipt(adopted_view, **doc_args)))
    assert "Released as Adopted" in t
    assert "Dana Whitfield 400 Lake Rd Riverton WI 53001" in t
    assert "Not the owner" in t
    assert "R-1003" in t and "Check" in t and "Adoption fee" in t and "Total paid $75.00" in t


@pytest.mark.parametrize("kind", ["transferred", "euthanized", "died", "escaped"])
def test_refuses_a_disposition_that_is_not_a_release(released_view, doc_args, kind):
    view = replace(released_view, disposition=replace(released_view.disposition, kind=kind))
    with pytest.raises(ValueError, match="not released"):
        release_receipt(view, **doc_args)


def test_refuses_an_animal_still_in_custody(custody_view, doc_args):
    with pytest.raises(ValueError, match="no disposition"):
        release_receipt(custody_view, **doc_args)


def test_hostile_text_prints_as_typed_and_embeds_nothing(released_view, doc_args, read_pdf):
    person = PartyView(id=9, full_name=IMG, address=f"{TRICKY}\n<b>not bold</b> & <br/>")
    view = replace(
        released_view,
        animal=replace(released_view.animal, name=IMG, markings="<font size=40>big</font>"),
        disposition=replace(released_view.disposition, recipient=person, notes=IMG),
        payments=(
            PaymentView(
                id=5,
                paid_at=released_view.impounded_at,
                payer=person,
                method="cash",
                receipt_number="<R&1>",
                recorded_by="opal",
                lines=(PaymentLineView("other", IMG, Decimal("1.00")),),
            ),
        ),
    )
    pdf = release_receipt(view, **doc_args)
    t = " ".join(read_pdf(pdf))
    assert f"Released to {IMG} {TRICKY} <b>not bold</b> & <br/>" in t
    assert "<font size=40>big</font>" in t
    assert "<R&1>" in t
    assert t.count(IMG) >= 5  # animal, recipient, notes, payer, line description, signature
    assert images_besides_the_letterhead(pdf) == []


def test_many_payments_run_onto_more_pages_with_numbering(released_view, doc_args, read_pdf):
    lines = tuple(
        PaymentLineView("boarding", f"Boarding day {n}", Decimal("12.50")) for n in range(1, 80)
    )
    payment = replace(released_view.payments[0], lines=lines)
    pages = read_pdf(release_receipt(replace(released_view, payments=(payment,)), **doc_args))
    assert len(pages) >= 2
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text
    assert "Receipt no. Paid Method Item Description Amount" in pages[1]
    assert "Total paid $987.50" in " ".join(pages)


def test_names_beyond_western_european_letters_print(released_view, doc_args, read_pdf):
    if unicode_font() is None:
        pytest.skip("no Unicode TrueType font on this machine (Arial, Liberation or DejaVu)")
    name = "Nguyễn Văn Ánh, Łukasz Wróbel, Zoë Ðặng"
    person = PartyView(id=9, full_name=name, address="Straße 5, Riverton")
    view = replace(released_view, disposition=replace(released_view.disposition, recipient=person))
    t = " ".join(read_pdf(release_receipt(view, **doc_args)))
    assert f"Released to {name} Straße 5, Riverton" in t
    assert "■" not in t
