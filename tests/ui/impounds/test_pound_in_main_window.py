"""The pound's pages in the app shell: navigation, Find, New and Refresh reach them."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from support import local

from ui.admin.page import AdministrationWidget
from ui.app import build_main_window
from ui.areas import AREAS
from ui.impounds.page import ImpoundsWidget
from ui.today.page import TodayWidget

PAGES = {"today": TodayWidget, "impounds": ImpoundsWidget, "admin": AdministrationWidget}
POUND_AREAS = tuple(replace(a, page=PAGES.get(a.key, a.page)) for a in AREAS)


@pytest.fixture
def wait_idle(qtbot, shell):
    """The shell's own tasks (the ``ctx`` fixture is another context)."""
    return lambda: qtbot.waitUntil(lambda: shell.ctx.tasks.pending_count() == 0, timeout=10_000)


@pytest.fixture
def shell(qtbot, qapp, sqlite_db, operator, today, errors, pound):
    pound.impound(pound.animal("Rex", breed="Beagle"), local(2026, 11, 20, 10, 0))
    w = build_main_window(
        sqlite_db, operator, today=lambda: today, errors=errors, areas=POUND_AREAS
    )
    w.ctx.now = lambda: local(2026, 11, 27, 15, 0)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    yield w
    w.ctx.shutdown()
    QApplication.processEvents()


def test_the_shell_opens_on_today_with_the_pounds_items(shell, wait_idle, rows_of):
    wait_idle()
    assert shell.current_area() == "today"
    assert rows_of(shell.current_page().view, 1) == [("Hold ends today",)]


def test_ctrl_2_then_ctrl_n_starts_an_intake(qtbot, shell, wait_idle, wait_dialog):
    qtbot.keyClick(shell, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    page = shell.current_page()
    assert isinstance(page, ImpoundsWidget)
    assert page.search.hasFocus()
    assert shell.new_action.text() == "&New intake…"
    wait_idle()
    assert page.count.text() == "1 impoundment"
    qtbot.keyClick(shell, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    intake = wait_dialog("IntakeDialog")
    assert intake.microchip.hasFocus()
    qtbot.keyClick(intake, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not intake.isVisible())


def test_administration_is_read_only_for_an_operator(shell, wait_idle):
    page = shell.show_area("admin")
    wait_idle()
    assert page.fee_schedules.form.isHidden()
    assert shell.refresh_action.isEnabled()
