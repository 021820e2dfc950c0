"""Closing blocks stay on the page they close: the receipt's statement and signatures,
and the register's summary, never take a page of their own when the last page has room."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest
from reportlab.platypus import Spacer

from fieldops.reports import impound_register, release_receipt
from fieldops.reports.base import FirstThatFits
from fieldops.services.impound_views import EvidenceView

MARCH = {"period_start": date(2026, 3, 1), "period_end": date(2026, 3, 31)}


def _with_requirements(view, n):
    d = view.disposition
    extra = tuple(
        EvidenceView(
            f"x{i}", f"Requirement number {i} of the ordinance, as recorded", f"Evidence {i}"
        )
        for i in range(n)
    )
    return replace(view, disposition=replace(d, evidence=(*d.evidence, *extra)))


def test_the_receipt_statement_and_signatures_stay_on_page_one_when_it_has_room(
    released_view, doc_args, read_pdf
):
    # One more requirement than the usual receipt: page 1 still has room for the closing
    # block, which used to move, alone, to a second page.
    pages = read_pdf(release_receipt(_with_requirements(released_view, 1), **doc_args))
    assert len(pages) == 1
    assert "Signature for the pound operator" in pages[0]
    assert "Evidence 0" in pages[0]


@pytest.mark.parametrize("extra", range(12))
def test_the_signatures_never_stand_alone_on_a_page(released_view, doc_args, read_pdf, extra):
    pages = read_pdf(release_receipt(_with_requirements(released_view, extra), **doc_args))
    last = pages[-1]
    assert "Signature for the pound operator" in last
    assert "The animal described above was released" in last
    # At least the last requirement and its evidence are on the same page, under the header.
    assert "Requirement Evidence recorded" in last
    assert (f"Evidence {extra - 1}" if extra else "Quarantine served at vet") in last


@pytest.mark.parametrize("rows", [20, 24, 27])
def test_the_register_summary_shares_the_last_page(released_view, doc_args, read_pdf, rows):
    views = [
        replace(
            released_view, id=2000 + n, impounded_at=released_view.impounded_at + timedelta(hours=n)
        )
        for n in range(rows)
    ]
    pages = read_pdf(impound_register(views, **MARCH, **doc_args))
    assert "Summary" in pages[-1]
    assert f"Total: {rows} impoundments" in pages[-1]


def test_the_first_version_that_fits_is_drawn_and_the_roomiest_moves_on():
    roomy, tight = [Spacer(10, 100)], [Spacer(10, 60)]
    block = FirstThatFits(roomy, tight)
    assert block.wrap(500, 120) == (500, 100)
    assert block.wrap(500, 80) == (500, 60)
    assert block.wrap(500, 40) == (500, 100)  # neither fits: the roomy one, on the next page
    assert block.split(500, 40) == []
    carried = FirstThatFits(roomy, tight, overflow=[Spacer(10, 110)])
    assert carried.wrap(500, 40) == (500, 110)  # moves on as the overflow version...
    assert carried.wrap(500, 700) == (500, 110)  # ...and stays so on the next page
