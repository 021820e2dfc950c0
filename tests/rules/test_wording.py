"""Counts read as words: "1 day", "2 days", never "day(s)"."""

from __future__ import annotations

from fieldops.rules import plural


def test_a_count_agrees_with_its_noun():
    assert plural(1, "day") == "1 day"
    assert plural(2, "day") == "2 days"
    assert plural(0, "item") == "0 items"
    assert plural(3, "person record") == "3 person records"
    assert plural(2, "fee", "fees") == "2 fees"
    assert plural(2, "inquiry", "inquiries") == "2 inquiries"
