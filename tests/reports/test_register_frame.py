"""The frame every record report prints in (fieldops/reports/frame.py): letterhead, title,
period, generated when and by whom, the version, "Page X of Y", headers on every page,
user text as typed, the public-records note and the supervisor's signature line."""

from __future__ import annotations

from datetime import date

import pytest

from fieldops import __version__
from fieldops.modules import Withheld
from fieldops.reports.frame import ReportDocument

HOSTILE = 'O\'Brien & <Sons> "Rex" Zoë Дмитрий Ζωή'
NOVEMBER = {"period_start": date(2026, 11, 1), "period_end": date(2026, 11, 30)}


class Listing(ReportDocument):
    title = "Test listing"

    def __init__(self, rows, **kw):
        super().__init__(**kw)
        self.rows = rows

    def body(self):
        return self.data_table(["Name", "Note"], self.rows, [3 * 72, 4 * 72])


def render(doc_args, rows=(), **kw):
    return Listing(list(rows), **NOVEMBER, **doc_args, **kw).render()


def test_the_frame_says_period_who_when_and_version(doc_args, read_pdf):
    pages = read_pdf(render(doc_args, [(HOSTILE, "x")], printed_by="Sam Supervisor"))
    first = pages[0]
    assert "City of Riverton Animal Control" in first and "Test listing" in first
    assert "Sun 1 Nov 2026 to Mon 30 Nov 2026" in first
    assert "Generated Thu 12 Mar 2026 10:30 AM CDT by Sam Supervisor" in first
    assert f"FieldOps {__version__}" in first
    assert "Printed Thu 12 Mar 2026 10:30 AM CDT by Sam Supervisor" in first
    assert HOSTILE in first  # user text exactly as typed
    assert "Reviewed and certified correct by the supervisor" in pages[-1]
    assert "Signature Name (printed) Date" in pages[-1]
    assert "Public-records copy" not in " ".join(pages)


def test_headers_repeat_and_every_page_is_numbered(doc_args, read_pdf):
    pages = read_pdf(render(doc_args, [(f"{HOSTILE} {n}", "note") for n in range(160)]))
    assert len(pages) > 2
    for n, text in enumerate(pages, start=1):
        assert f"Page {n} of {len(pages)}" in text
        if HOSTILE in text:
            assert "Name Note" in text, f"no column headers on page {n}"
    assert "Test listing (continued)" in pages[1]


def test_a_public_records_copy_says_on_its_first_page_what_was_withheld_and_why(doc_args, read_pdf):
    withheld = (
        Withheld("the bitten person's name, address and phone", "personal contact of a victim"),
        Withheld("the caller's phone", "a caller's contact & <details>"),
    )
    pages = read_pdf(render(doc_args, [("a", "b")], withheld=withheld))
    first = pages[0]
    assert "Public-records copy" in first
    for w in withheld:
        assert f"{w.what}: {w.why}" in first


def test_a_redacted_copy_with_nothing_private_says_so(doc_args, read_pdf):
    first = read_pdf(render(doc_args, [("a", "b")], redacted=True))[0]
    assert "Public-records copy" in first and "nothing was withheld" in first


def test_the_period_may_not_end_before_it_starts(doc_args):
    with pytest.raises(ValueError):
        Listing([], period_start=date(2026, 3, 2), period_end=date(2026, 3, 1), **doc_args)
