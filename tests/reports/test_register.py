"""The supervisor's register of impounded animals for a period (city code 58-528)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from support import images_besides_the_letterhead

from fieldops.reports import impound_register as render_register
from fieldops.services.register_views import RegisterRow

TRICKY = 'O\'Brien & <Sons> "Rex"'
HEADER = "No. Impounded Description Disposition Released to (name, address) Delivered / disposed Fees paid"
MARCH = {"period_start": date(2026, 3, 1), "period_end": date(2026, 3, 31)}


def impound_register(views, **kwargs):
    """The register of these record views, each as its register line."""
    return render_register([RegisterRow.from_view(v) for v in views], **kwargs)


def _many(view, make_disposition, count):
    kinds = ["reclaimed", "adopted", "transferred", None, "euthanized"]
    rows = []
    for n in range(count):
        kind = kinds[n % len(kinds)]
        disposition = None
        if kind is not None:
            disposition = make_disposition(
                id=n,
                kind=kind,
                recipient=view.owner if kind in ("reclaimed", "adopted") else None,
                transfer_to="Dane County Humane Society" if kind == "transferred" else "",
            )
        rows.append(
            replace(
                view,
                id=5000 + n,
                disposition=disposition,
                impounded_at=view.impounded_at + timedelta(minutes=7 * n),
                payments=view.payments if kind == "reclaimed" else (),
            )
        )
    return rows


def test_one_line_per_impoundment_with_totals(
    released_view, adopted_view, custody_view, doc_args, read_pdf
):
    late = replace(custody_view, id=1045, impounded_at=datetime(2026, 3, 3, 3, 30, tzinfo=UTC))
    pdf = impound_register([custody_view, late, adopted_view, released_view], **MARCH, **doc_args)
    t = " ".join(read_pdf(pdf))
    assert "Register of impounded animals" in t
    assert "Sun 1 Mar 2026 to Tue 31 Mar 2026" in t
    assert HEADER in t
    assert (
        f"1042 Mon 2 Mar 2026 Rex <the dog>, dog, Beagle mix, Tan & white, male "
        f"Reclaimed by owner {TRICKY}, 12 Elm St & 3rd Ave, Riverton WI 53000 "
        f"Mon 9 Mar 2026 $1,392.50"
    ) in t
    assert "Adopted Dana Whitfield, 400 Lake Rd, Riverton WI 53001 Wed 11 Mar 2026 $75.00" in t
    assert "1044 Mon 2 Mar 2026" in t and "In custody" in t
    # 03:30 UTC on the 3rd is the evening of the 2nd in Chicago.
    assert "1045 Mon 2 Mar 2026" in t
    assert "Total: 4 impoundments $1,467.50" in t
    # The summary runs across the page (issue 7: as a column it took a page of its own).
    assert (
        "In custody Reclaimed by owner Adopted Transferred Euthanized Died Escaped All "
        "Fees paid 2 1 1 0 0 0 0 4 $1,467.50"
    ) in t


def test_rows_in_order_of_impoundment(released_view, custody_view, doc_args, read_pdf):
    early = replace(custody_view, id=9, impounded_at=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    t = " ".join(read_pdf(impound_register([released_view, early], **MARCH, **doc_args)))
    assert t.index("9 Sun 1 Mar 2026") < t.index("1042 Mon 2 Mar 2026")


def test_names_print_as_typed(released_view, make_disposition, doc_args, read_pdf):
    img = '<img src="file:///etc/passwd">'
    person = replace(released_view.owner, full_name=img)
    view = replace(
        released_view,
        animal=replace(released_view.animal, name=img),
        disposition=make_disposition(recipient=person),
    )
    pdf = impound_register([view], **MARCH, **doc_args)
    t = " ".join(read_pdf(pdf))
    assert f"{img}, dog" in t and f"{img}, 12 Elm St" in t
    assert images_besides_the_letterhead(pdf) == []


def test_empty_period(doc_args, read_pdf):
    t = " ".join(read_pdf(impound_register([], **MARCH, **doc_args)))
    assert "No entries." in t and "Total: 0 impoundments $0.00" in t


def test_period_must_not_end_before_it_starts(doc_args):
    with pytest.raises(ValueError):
        impound_register(
            [], period_start=date(2026, 3, 31), period_end=date(2026, 3, 1), **doc_args
        )


def test_long_register_repeats_headers_and_numbers_pages(
    released_view, make_disposition, doc_args, read_pdf
):
    pages = read_pdf(
        impound_register(_many(released_view, make_disposition, 300), **MARCH, **doc_args)
    )
    assert len(pages) > 3
    for number, text in enumerate(pages, start=1):
        if "Rex <the dog>" in text:  # a page of register lines, not only the summary
            assert HEADER in text, f"no column headers on page {number}"
        assert f"Page {number} of {len(pages)}" in text
    assert sum("Rex <the dog>" in text for text in pages) > 3
    assert "Register of impounded animals (continued)" in pages[1]
    assert "Total: 300 impoundments $83,550.00" in pages[-1] + pages[-2]


def test_a_row_is_what_its_record_view_prints(released_view, adopted_view, custody_view):
    row = RegisterRow.from_view(released_view)
    assert (row.id, row.impounded_at) == (1042, released_view.impounded_at)
    assert row.animal == released_view.animal
    assert row.disposition.label == "Reclaimed by owner"
    assert row.disposition.recipient == released_view.disposition.recipient
    assert row.fees_paid == (
        ("impound", Decimal("35.00")),
        ("boarding", Decimal("87.50")),
        ("licence", Decimal("1250.00")),
        ("rabies_prepayment", Decimal("20.00")),
    )
    assert row.fees_paid_total == released_view.fees_paid_total
    assert RegisterRow.from_view(adopted_view).fees_paid == (("adoption", Decimal("75.00")),)
    assert RegisterRow.from_view(custody_view).disposition is None
