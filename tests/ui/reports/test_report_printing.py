"""The reports' print setup: one for the session, and kept for the next one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QPageLayout

from ui.reports import printing


@pytest.fixture
def kept(monkeypatch, tmp_path):
    path = str(tmp_path / "settings.ini")
    monkeypatch.setattr(printing, "settings", lambda: QSettings(path, QSettings.Format.IniFormat))
    monkeypatch.setattr(printing, "_printer", None)
    return path


def test_the_setup_lasts_the_session_and_is_kept_for_the_next(qapp, kept, monkeypatch):
    first = printing.session_printer()
    assert printing.session_printer() is first  # the dialog opens as it was left
    first.setPageOrientation(QPageLayout.Orientation.Landscape)
    printing.remember(first)
    monkeypatch.setattr(printing, "_printer", None)  # a new session
    again = printing.session_printer()
    assert again is not first
    assert again.pageLayout().orientation() == QPageLayout.Orientation.Landscape
