"""Lock (Ctrl+L), the idle lock and Switch user, at a counter several people share.

Locking covers the main window with an overlay and hides every other window; nothing
is closed, so a form someone was typing in comes back as it was when the same user
unlocks. Switching to another user closes the previous user's open forms (what they
typed is theirs, not the next user's to save) and rebuilds the pages for the new role.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import UserError
from fieldops.services.context import Actor
from fieldops.services.signin import sign_in
from fieldops.services.staff import idle_lock_minutes
from ui.main_window import MainWindow, signed_in_text

INPUT_EVENTS = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseMove,
        QEvent.Type.Wheel,
    }
)
_WATCHED = INPUT_EVENTS | {QEvent.Type.KeyRelease, QEvent.Type.Resize, QEvent.Type.Close}


class LockOverlay(QFrame):
    """What a locked window shows: who is signed in, a password, and Switch user."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("LockOverlay")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        box = QFrame(self)
        box.setObjectName("LockBox")
        inner = QVBoxLayout(box)
        self.who = QLabel()
        self.who.setObjectName("PageHeading")
        inner.addWidget(QLabel("FieldOps is locked."))
        inner.addWidget(self.who)
        form = QFormLayout()
        self.username = QLineEdit()
        self.username.hide()
        self.username_label = QLabel("&Login name:")
        self.username_label.setBuddy(self.username)
        self.username_label.hide()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        form.addRow(self.username_label, self.username)
        form.addRow("&Password:", self.password)
        inner.addLayout(form)
        self.error = QLabel()
        self.error.setObjectName("FieldError")
        self.error.setWordWrap(True)
        self.error.hide()
        inner.addWidget(self.error)
        buttons = QHBoxLayout()
        self.unlock_button = QPushButton("&Unlock")
        self.unlock_button.setDefault(True)
        self.switch_button = QPushButton("&Switch user…")
        buttons.addWidget(self.switch_button)
        buttons.addStretch(1)
        buttons.addWidget(self.unlock_button)
        inner.addLayout(buttons)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(box)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(1)
        self.password.returnPressed.connect(self.unlock_button.click)
        self.username.returnPressed.connect(self.password.setFocus)
        self.hide()

    def switching(self) -> bool:
        return self.username.isVisible()


class SessionController(QObject):
    """Lock, idle lock and Switch user for one main window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.ctx = window.ctx
        self.overlay = LockOverlay(window)
        self.hidden: list[QWidget] = []
        self.last_input = time.monotonic()
        try:
            minutes = idle_lock_minutes(self.ctx.db)
        except Exception:  # a setting that cannot be read must not stop the window
            minutes = 0
        self.idle_limit_s = minutes * 60.0  # 0: never; tests shorten it
        self.lock_action = QAction("&Lock", window)
        self.lock_action.setShortcut(QKeySequence("Ctrl+L"))
        self.lock_action.triggered.connect(self.lock)
        self.switch_action = QAction("S&witch user…", window)
        self.switch_action.triggered.connect(self.switch_user)
        window.addAction(self.lock_action)
        file_menu = window.menuBar().actions()[0].menu()
        if isinstance(file_menu, QMenu) and file_menu.actions():
            first = file_menu.actions()[0]  # Quit
            file_menu.insertAction(first, self.lock_action)
            file_menu.insertAction(first, self.switch_action)
            file_menu.insertSeparator(first)
        self.overlay.unlock_button.clicked.connect(self._on_unlock_clicked)
        self.overlay.switch_button.clicked.connect(self._on_switch_clicked)
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self._on_tick)
        self.timer.start()
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def stop(self) -> None:
        """No more watching input (the window is going)."""
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self.timer.stop()

    # -- state -------------------------------------------------------------

    @property
    def locked(self) -> bool:
        return self.overlay.isVisible()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Every event of the application passes here (thousands while a page is built):
        # its type is asked once, and most events are none of these.
        kind = event.type()
        if kind not in _WATCHED or "window" not in self.__dict__:
            return False  # (a wrapper outliving its window has nothing to lock)
        if kind == QEvent.Type.KeyRelease:
            if self._is_lock_key(event) and self.locked:
                event.accept()  # the release of the Ctrl+L that locked: nobody else's
                return True
        elif kind in INPUT_EVENTS:
            self.last_input = time.monotonic()
            if self._is_lock_key(event) and not self.locked and self.window.isVisible():
                # In any window: a modal form blocks the main window's own shortcut.
                self.lock()
                event.accept()
                return True
        elif watched is self.window and kind == QEvent.Type.Resize:
            self.resize_overlay()
        elif watched is self.window and kind == QEvent.Type.Close:
            self.stop()
        return False

    @staticmethod
    def _is_lock_key(event: QEvent) -> bool:
        return (
            isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_L
            and event.modifiers() == Qt.KeyboardModifier.ControlModifier
        )

    def _on_tick(self) -> None:
        idle = time.monotonic() - self.last_input
        if self.idle_limit_s > 0 and not self.locked and idle >= self.idle_limit_s:
            self.lock()

    # -- locking -----------------------------------------------------------

    def lock(self) -> None:
        if self.locked:
            return
        self.hidden = [
            w
            for w in QApplication.topLevelWidgets()
            if w is not self.window and w.isVisible() and not w.isHidden()
        ]
        for w in self.hidden:
            w.hide()
        self.window.menuBar().setEnabled(False)
        central = self.window.centralWidget()
        if central is not None:
            central.setEnabled(False)
        self._show_overlay(switching=False)

    def switch_user(self) -> None:
        if not self.locked:
            self.lock()
        self._show_overlay(switching=True)

    def _show_overlay(self, *, switching: bool) -> None:
        o = self.overlay
        o.who.setText(signed_in_text(self.ctx.actor))
        o.username.setVisible(switching)
        o.username_label.setVisible(switching)
        o.username.clear()
        o.password.clear()
        o.error.hide()
        o.setGeometry(self.window.rect())
        o.show()
        o.raise_()
        (o.username if switching else o.password).setFocus()

    def _unlock(self) -> None:
        self.overlay.hide()
        self.window.menuBar().setEnabled(True)
        central = self.window.centralWidget()
        if central is not None:
            central.setEnabled(True)
        for w in self.hidden:
            w.show()
        self.hidden = []
        self.last_input = time.monotonic()

    def _on_switch_clicked(self) -> None:
        self._show_overlay(switching=True)

    def _on_unlock_clicked(self) -> None:
        o = self.overlay
        username = o.username.text().strip() if o.switching() else self.ctx.actor.username
        try:
            signed = sign_in(self.ctx.db, username, o.password.text())
        except UserError as exc:
            o.password.clear()
            o.error.setText(str(exc))
            o.error.show()
            return
        o.password.clear()
        if signed.must_change_password and not self._forced_change(signed.actor):
            # As at start-up: no new password, no sign-in; the window stays locked.
            o.error.setText("The password was reset: choose a new one to unlock.")
            o.error.show()
            return
        if signed.actor.username != self.ctx.actor.username:
            for w in self.hidden:  # the previous user's forms are not the next one's
                w.close()
            self.hidden = []
            self.window.signed_in_as(signed.actor)
        self._unlock()

    def _forced_change(self, actor: Actor) -> bool:
        """A reset password is changed before the window opens to its user."""
        from ui.account.dialogs import ChangePasswordDialog

        dialog = ChangePasswordDialog(self.ctx.db, actor, forced=True, parent=self.window)
        return dialog.exec() == QDialog.DialogCode.Accepted

    def resize_overlay(self) -> None:
        if self.locked:
            self.overlay.setGeometry(self.window.rect())
