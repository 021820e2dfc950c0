"""Issue 14: Help > About shows the app's one version number, the Qt and PySide6 it
runs on, and where its database is."""

from __future__ import annotations

import PySide6
from PySide6.QtCore import qVersion

from fieldops import __version__
from ui import about


def test_help_about_shows_version_qt_and_the_database(window, monkeypatch):
    shown: list[about.AboutDialog] = []

    def exec_(self: about.AboutDialog) -> int:  # modal in use; shown and kept here
        shown.append(self)
        self.show()
        return 0

    monkeypatch.setattr(about.AboutDialog, "exec", exec_)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    next(a for a in help_menu.actions() if a.text() == "&About FieldOps").trigger()
    assert len(shown) == 1
    dialog = shown[0]
    text = "\n".join(w.text() for w in dialog.findChildren(about.QLabel))
    assert f"FieldOps {__version__}" in text
    assert f"Qt {qVersion()}" in text and f"PySide6 {PySide6.__version__}" in text
    assert window.ctx.db.description in text
    dialog.reject()
