"""Signing in, locking and the role's view of the window (issue 12), as a user meets them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from fieldops.errors import PermissionDeniedError
from fieldops.services.signin import needs_first_admin, set_password
from fieldops.services.staff import list_staff
from ui.account.dialogs import FirstAdminDialog, SignInDialog
from ui.app import build_main_window

GOOD = "correct horse battery"
CTRL = Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def with_password(sqlite_db, admin, operator):
    set_password(sqlite_db, admin, "opal", GOOD, must_change=False)
    return GOOD


def _unlock(qtbot, session, password, username=None):
    o = session.overlay
    if username is not None:
        o.username.setText(username)
    o.password.setFocus()
    qtbot.keyClicks(o.password, password)
    qtbot.mouseClick(o.unlock_button, Qt.MouseButton.LeftButton)


def test_ctrl_l_locks_and_the_unsaved_form_comes_back_as_typed(
    qtbot, window, wait_dialog, with_password
):
    qtbot.keyClick(window, Qt.Key.Key_N, CTRL)
    form = wait_dialog("PersonDialog")
    form.full_name.setFocus()
    qtbot.keyClicks(form.full_name, "Half Typed Name")
    session = window.session
    # (the press locks; its release would go to the form that is hidden by then)
    qtbot.keyPress(form.full_name, Qt.Key.Key_L, CTRL)
    assert session.locked and session.overlay.isVisible()
    assert not form.isVisible() and not window.centralWidget().isEnabled()
    _unlock(qtbot, session, "wrong password!")
    assert session.locked and "wrong" in session.overlay.error.text()
    assert session.overlay.password.text() == ""  # a refused password is not kept
    _unlock(qtbot, session, with_password)
    assert not session.locked and form.isVisible()
    assert form.full_name.text() == "Half Typed Name"
    form.close()


def test_the_window_locks_itself_after_the_idle_period(qtbot, window):
    session = window.session
    session.idle_limit_s = 0.3
    qtbot.waitUntil(lambda: session.locked, timeout=5_000)
    assert session.overlay.isVisible()


def test_switch_user_signs_in_another_account_without_closing_the_window(
    qtbot, window, sqlite_db, admin, supervisor, with_password
):
    set_password(sqlite_db, admin, "sam", "supervisor's secret", must_change=False)
    session = window.session
    session.switch_user()
    assert session.overlay.username.isVisible()
    _unlock(qtbot, session, "supervisor's secret", username="sam")
    assert not session.locked and window.isVisible()
    assert window.ctx.actor.username == "sam" and window.ctx.actor.role == "supervisor"
    assert "Sam Supervisor" in window.user_label.text()


def test_switch_user_with_a_reset_password_cannot_skip_the_forced_change(
    qtbot, window, sqlite_db, admin, supervisor
):
    """As at start-up, a reset password is changed before the window opens to its user:
    cancelling the forced change leaves the window locked and signed in as before."""
    from PySide6.QtCore import QTimer

    set_password(sqlite_db, admin, "sam", "temporary password", must_change=True)
    session = window.session
    before = window.ctx.actor.username
    session.switch_user()
    seen: list[str] = []

    def cancel_the_change() -> None:
        for w in QApplication.topLevelWidgets():
            if w.objectName() == "ChangePasswordDialog" and w.isVisible():
                seen.append("asked")
                assert session.locked  # asked before the window is unlocked
                w.reject()
                return
        QTimer.singleShot(50, cancel_the_change)

    QTimer.singleShot(50, cancel_the_change)
    _unlock(qtbot, session, "temporary password", username="sam")
    assert seen == ["asked"]
    assert session.locked and window.ctx.actor.username == before
    assert session.overlay.password.text() == ""


def test_switch_user_with_a_reset_password_unlocks_once_it_is_changed(
    qtbot, window, sqlite_db, admin, supervisor
):
    from PySide6.QtCore import QTimer

    set_password(sqlite_db, admin, "sam", "temporary password", must_change=True)
    session = window.session
    session.switch_user()

    def change_it() -> None:
        for w in QApplication.topLevelWidgets():
            if w.objectName() == "ChangePasswordDialog" and w.isVisible():
                assert session.locked
                w.old.setText("temporary password")
                w.new.setText("sam's own new password")
                w.repeat.setText("sam's own new password")
                w.buttons.accepted.emit()
                return
        QTimer.singleShot(50, change_it)

    QTimer.singleShot(50, change_it)
    _unlock(qtbot, session, "temporary password", username="sam")
    assert not session.locked and window.ctx.actor.username == "sam"


def test_an_operator_sees_no_accounts_and_no_fee_form_and_the_service_refuses_anyway(qtbot, window):
    page = window.show_area("admin")
    assert page.staff is None and page.idle_lock is None
    assert not page.fee_schedules.form.isVisible()
    assert page.fee_schedules.read_only_note.isVisible()
    # Past the hidden form, straight at the service: refused in words.
    page.fee_schedules.save()
    qtbot.waitUntil(lambda: window.ctx.tasks.pending_count() == 0, timeout=10_000)
    assert "fee schedule" in page.fee_schedules.banner.text().lower()


def test_an_administrator_adds_staff_and_resets_a_password(
    qtbot, qapp, sqlite_db, admin, today, errors
):
    w = build_main_window(sqlite_db, admin, today=lambda: today, errors=errors)
    qtbot.addWidget(w)
    w.show()
    page = w.show_area("admin")
    staff = page.staff
    assert staff is not None and page.idle_lock is not None
    assert not page.fee_schedules.form.isVisible()  # fees are a supervisor's
    staff.username.setText("otto")
    staff.full_name.setText("Otto Officer")
    staff.role.setCurrentIndex(staff.role.findData("officer"))
    staff.password.setText("short")
    qtbot.mouseClick(staff.add_button, Qt.MouseButton.LeftButton)
    assert "10 characters" in staff.message.text()
    assert "otto" not in {u.username for u in list_staff(sqlite_db)}
    staff.password.setText("otto's first password")
    qtbot.mouseClick(staff.add_button, Qt.MouseButton.LeftButton)
    otto = {u.username: u for u in list_staff(sqlite_db)}["otto"]
    assert otto.role == "officer" and otto.has_password and otto.must_change_password
    staff.table.selectRow([u.username for u in staff.staff].index("otto"))
    qtbot.mouseClick(staff.reset_button, Qt.MouseButton.LeftButton)
    assert "temporary password" in staff.message.text()
    qtbot.mouseClick(staff.deactivate_button, Qt.MouseButton.LeftButton)
    otto = {u.username: u for u in list_staff(sqlite_db)}["otto"]
    assert not otto.active  # deactivated, never deleted
    # The account's history: who made it, reset its password and deactivated it, in words.
    qtbot.waitUntil(lambda: staff.history_model.rowCount() >= 3, timeout=10_000)
    lines = [staff.history_model.row_object(i) for i in range(staff.history_model.rowCount())]
    assert {line.who for line in lines} == {admin.full_name}
    words = " ".join(line.sentence for line in lines)
    assert "officer" in words and "staff_user" not in words and "password_hash" not in words
    w.ctx.shutdown()
    QApplication.processEvents()


def test_a_new_database_asks_for_the_first_administrator(qtbot, sqlite_db):
    assert needs_first_admin(sqlite_db)
    d = FirstAdminDialog(sqlite_db)
    qtbot.addWidget(d)
    d.username.setText("ada")
    d.full_name.setText("Ada Admin")
    d.password.setText(GOOD)
    d.repeat.setText("something else")
    d._on_ok()
    assert not d.error.isHidden() and d.actor is None and d.username.text() == "ada"
    d.repeat.setText(GOOD)
    d._on_ok()
    assert d.actor is not None and d.actor.role == "admin" and not needs_first_admin(sqlite_db)
    s = SignInDialog(sqlite_db, username="ada")
    qtbot.addWidget(s)
    s.password.setText("not the password")
    s._on_ok()
    assert s.signed is None and not s.error.isHidden() and s.password.text() == ""
    s.password.setText(GOOD)
    s._on_ok()
    assert s.signed is not None and s.signed.actor.username == "ada"


def test_the_service_refuses_an_operator_even_when_the_ui_is_bypassed(sqlite_db, operator):
    from fieldops.services.fee_schedules import FeeScheduleInput, enter_fee_schedule

    with pytest.raises(PermissionDeniedError):
        enter_fee_schedule(sqlite_db, operator, FeeScheduleInput("R-1", None, {}))


def test_an_operator_is_not_offered_a_bite_report_and_the_service_refuses_it(
    qtbot, window, sqlite_db, operator
):
    from fieldops.services import quarantine as qs

    page = window.show_area("quarantines")
    assert not page.bite_button.isEnabled() and not window.new_action.isEnabled()
    impounds = window.show_area("impounds")
    assert impounds.intake_button.isEnabled() and window.new_action.isEnabled()
    with pytest.raises(PermissionDeniedError, match="bite report"):
        qs.report_bite(sqlite_db, operator, None, None)
