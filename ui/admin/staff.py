"""Administration: staff accounts (add, roles, deactivate, reset a password) and the idle lock.

Shown only to a role with the accounts (or settings) permission; the services
refuse anyone else anyway. An account is deactivated, never deleted: the audit
trail keeps naming it.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import StaleRecordError, UserError, ValidationError
from fieldops.permissions import ROLES, role_label
from fieldops.services.history import record_history
from fieldops.services.signin import reset_password, set_password, unlock
from fieldops.services.staff import (
    StaffView,
    idle_lock_minutes,
    list_staff,
    set_idle_lock_minutes,
    set_staff,
)
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.table_models import ListTableModel
from ui.common.widgets import RecordTableView
from ui.context import AppContext

COLUMNS = ("Login", "Name", "Role", "State", "Computer login")


class StaffWidget(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__("Staff accounts", parent)
        self.setObjectName("StaffWidget")
        self.ctx = ctx
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.username = QLineEdit()
        self.username.setPlaceholderText("login name")
        self.full_name = QLineEdit()
        self.full_name.setPlaceholderText("full name")
        self.role = QComboBox()
        for r in ROLES:
            self.role.addItem(role_label(r), r)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setPlaceholderText("first password (10+ characters)")
        self.add_button = QPushButton("&Add or change")
        self.deactivate_button = QPushButton("&Deactivate")
        self.reset_button = QPushButton("Reset pass&word")
        self.unlock_button = QPushButton("Un&lock")
        # The selected account's history: who changed its role, reset it, locked it, when.
        self.history_model = ListTableModel(history_columns(ctx), parent=self)
        self.history_view = RecordTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.message = QLabel()
        self.message.setObjectName("FieldHint")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(self.message.textInteractionFlags())
        row = QHBoxLayout()
        for w in (self.username, self.full_name, self.role, self.password, self.add_button):
            row.addWidget(w)
        actions = QHBoxLayout()
        for b in (self.deactivate_button, self.reset_button, self.unlock_button):
            actions.addWidget(b)
        actions.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(actions)
        layout.addLayout(row)
        layout.addWidget(self.message)
        history_label = QLabel("Histor&y of the selected account")
        history_label.setBuddy(self.history_view)
        layout.addWidget(history_label)
        layout.addWidget(self.history_view, 1)
        self.add_button.clicked.connect(self._on_add_clicked)
        self.deactivate_button.clicked.connect(self._on_deactivate_clicked)
        self.reset_button.clicked.connect(self._on_reset_clicked)
        self.unlock_button.clicked.connect(self._on_unlock_clicked)
        self.table.itemSelectionChanged.connect(self._on_selection_changed)
        self.staff: tuple[StaffView, ...] = ()
        self.refresh()

    def refresh(self) -> None:
        self.staff = list_staff(self.ctx.db)
        self.table.setRowCount(len(self.staff))
        for i, u in enumerate(self.staff):
            state = "active" if u.active else "deactivated"
            if u.locked_until is not None and u.active:
                state = "locked"
            values = (u.username, u.full_name, role_label(u.role), state, u.os_user or "")
            for c, text in enumerate(values):
                self.table.setItem(i, c, QTableWidgetItem(text))

    def selected(self) -> StaffView | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        return self.staff[min(rows)] if rows else None

    def _say(self, text: str) -> None:
        self.message.setText(text)

    def _run(self, action: str, fn: object, *args: object, **kwargs: object) -> object:
        try:
            result = fn(*args, **kwargs)  # type: ignore[operator]
        except ValidationError as exc:
            self._say("; ".join(e.message for e in exc.errors))
            return None
        except UserError as exc:
            self._say(str(exc))
            if isinstance(exc, StaleRecordError):
                self.refresh()  # show what the other workstation saved
            return None
        self.refresh()
        self._on_selection_changed()  # the selected account's history now holds the change
        self.ctx.bus.changed.emit("staff_user", 0)
        return result if result is not None else action

    def _on_selection_changed(self) -> None:
        u = self.selected()
        self.history_model.set_rows(())
        if u is not None:
            self.ctx.tasks.run(
                record_history,
                self.ctx.db,
                "staff_user",
                u.id,
                self.ctx.timezone,
                owner=self,
                on_done=self.history_model.set_rows,
            )
            self.username.setText(u.username)
            self.full_name.setText(u.full_name)
            self.role.setCurrentIndex(max(0, self.role.findData(u.role)))

    def _on_add_clicked(self) -> None:
        name = self.username.text().strip()
        known = {u.username for u in self.staff}
        role = str(self.role.currentData())
        password = self.password.text()
        if name not in known and not password:
            self._say("A new account needs a first password (at least 10 characters).")
            return
        if password:
            from fieldops.services.signin import check_password

            try:
                check_password("password", password)
            except ValidationError as exc:
                self._say(exc.errors[0].message)
                return
        loaded = next((u for u in self.staff if u.username == name), None)
        done = self._run(
            "saved", set_staff, self.ctx.db, self.ctx.actor, name, role,
            full_name=self.full_name.text(),
            expected_version=loaded.version if loaded else None,
        )  # fmt: skip
        if done and password:
            self._run("saved", set_password, self.ctx.db, self.ctx.actor, name, password)
            self.password.clear()
        if done:
            self._say(f"{name} is a {role_label(role)}.")

    def _on_deactivate_clicked(self) -> None:
        u = self.selected()
        if u is None:
            self._say("Choose the account to deactivate.")
            return
        if self._run("saved", set_staff, self.ctx.db, self.ctx.actor, u.username, u.role,
                     full_name=u.full_name, active=False,
                     expected_version=u.version):  # fmt: skip
            self._say(f"{u.username} is deactivated; their records keep their name.")

    def _on_reset_clicked(self) -> None:
        u = self.selected()
        if u is None:
            self._say("Choose the account whose password to reset.")
            return
        temporary = self._run("reset", reset_password, self.ctx.db, self.ctx.actor, u.username)
        if temporary:
            self._say(
                f"{u.username}'s temporary password is {temporary} (shown this once); "
                "they choose a new one when they sign in."
            )

    def _on_unlock_clicked(self) -> None:
        u = self.selected()
        if u is not None and self._run("unlocked", unlock, self.ctx.db, self.ctx.actor, u.username):
            self._say(f"{u.username} is unlocked.")


class IdleLockWidget(QGroupBox):
    """How long the window waits without input before it locks itself."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__("Idle lock", parent)
        self.setObjectName("IdleLockWidget")
        self.ctx = ctx
        self.minutes = QSpinBox()
        self.minutes.setRange(0, 240)
        self.minutes.setSuffix(" minutes")
        self.minutes.setSpecialValueText("never")
        self.minutes.setValue(idle_lock_minutes(ctx.db))
        self.save_button = QPushButton("&Save")
        self.message = QLabel()
        row = QHBoxLayout(self)
        row.addWidget(QLabel("Lock the window after"))
        row.addWidget(self.minutes)
        row.addWidget(self.save_button)
        row.addWidget(self.message, 1)
        self.save_button.clicked.connect(self._on_save_clicked)

    def _on_save_clicked(self) -> None:
        try:
            minutes = set_idle_lock_minutes(self.ctx.db, self.ctx.actor, self.minutes.value())
        except UserError as exc:
            self.message.setText(str(exc))
            return
        self.message.setText("Saved; it applies from the next sign-in at every workstation.")
        window = self.window()
        session = getattr(window, "session", None)
        if session is not None:
            session.idle_limit_s = minutes * 60.0
