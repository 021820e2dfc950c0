"""The record sheet shows what the officer saw at intake (issue 7, item 5)."""

from __future__ import annotations

from dataclasses import replace

from fieldops.reports import impound_record_sheet


def test_condition_and_injuries_are_on_the_record_sheet(doc_args, read_pdf, released_view):
    view = replace(released_view, condition="Thin, matted", injuries="Cut on the left fore paw")
    t = " ".join(read_pdf(impound_record_sheet(view, **doc_args)))
    assert "Condition Thin, matted" in t
    assert "Injuries Cut on the left fore paw" in t


def test_nothing_recorded_adds_no_lines(doc_args, read_pdf, released_view):
    t = " ".join(read_pdf(impound_record_sheet(released_view, **doc_args)))
    assert "Condition" not in t and "Injuries" not in t
