"""The sign-in, first-administrator and change-password dialogs.

Each keeps what was typed when refused and says why beside the fields; a password
is never kept after the dialog closes.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from fieldops.db.engine import Database
from fieldops.errors import UserError, ValidationError
from fieldops.services.context import Actor
from fieldops.services.signin import (
    MIN_PASSWORD_LENGTH,
    SignedIn,
    change_password,
    create_first_admin,
    sign_in,
)


def _password_field() -> QLineEdit:
    field = QLineEdit()
    field.setEchoMode(QLineEdit.EchoMode.Password)
    return field


class _Form(QDialog):
    def __init__(self, title: str, intro: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        heading = QLabel(intro)
        heading.setWordWrap(True)
        layout.addWidget(heading)
        self.form = QFormLayout()
        layout.addLayout(self.form)
        self.error = QLabel()
        self.error.setObjectName("FieldError")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self._on_ok)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def say(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()

    def _on_ok(self) -> None:
        try:
            self.submit()
        except ValidationError as exc:
            self.say("; ".join(e.message for e in exc.errors))
        except UserError as exc:
            self.say(str(exc))
        else:
            self.accept()

    def submit(self) -> None:
        raise NotImplementedError


class SignInDialog(_Form):
    """Login name and password; ``signed`` once accepted."""

    def __init__(self, db: Database, *, username: str = "", parent: QWidget | None = None) -> None:
        super().__init__("Sign in to FieldOps", "Sign in with your FieldOps account.", parent)
        self.setObjectName("SignInDialog")
        self.db = db
        self.signed: SignedIn | None = None
        self.username = QLineEdit(username)
        self.password = _password_field()
        self.form.addRow("&Login name:", self.username)
        self.form.addRow("&Password:", self.password)
        (self.password if username else self.username).setFocus()

    def submit(self) -> None:
        try:
            self.signed = sign_in(self.db, self.username.text(), self.password.text())
        finally:
            self.password.clear()


class FirstAdminDialog(_Form):
    """A new database: the first administrator chooses a login and a password."""

    def __init__(self, db: Database, parent: QWidget | None = None) -> None:
        super().__init__(
            "FieldOps: the first administrator",
            "This database has no administrator yet. Create the administrator's account: "
            "they add the staff and give them their roles. There is no default password.",
            parent,
        )
        self.setObjectName("FirstAdminDialog")
        self.db = db
        self.actor: Actor | None = None
        self.username = QLineEdit()
        self.full_name = QLineEdit()
        self.password = _password_field()
        self.repeat = _password_field()
        self.password.setPlaceholderText(f"at least {MIN_PASSWORD_LENGTH} characters")
        self.form.addRow("&Login name:", self.username)
        self.form.addRow("&Full name:", self.full_name)
        self.form.addRow("&Password:", self.password)
        self.form.addRow("&Again:", self.repeat)

    def submit(self) -> None:
        if self.password.text() != self.repeat.text():
            raise ValidationError({"repeat": "The two passwords differ."})
        self.actor = create_first_admin(
            self.db, self.username.text(), self.full_name.text(), self.password.text()
        )


class ChangePasswordDialog(_Form):
    def __init__(
        self, db: Database, actor: Actor, *, forced: bool = False, parent: QWidget | None = None
    ) -> None:
        intro = (
            "Your password was reset: choose a new one before you go on."
            if forced
            else "Choose a new password."
        )
        super().__init__("Change your password", intro, parent)
        self.setObjectName("ChangePasswordDialog")
        self.db, self.actor = db, actor
        self.old = _password_field()
        self.new = _password_field()
        self.repeat = _password_field()
        self.new.setPlaceholderText(f"at least {MIN_PASSWORD_LENGTH} characters")
        self.form.addRow("&Current password:", self.old)
        self.form.addRow("&New password:", self.new)
        self.form.addRow("&Again:", self.repeat)

    def submit(self) -> None:
        if self.new.text() != self.repeat.text():
            raise ValidationError({"repeat": "The two new passwords differ."})
        change_password(self.db, self.actor, self.old.text(), self.new.text())


def sign_in_at_start(db: Database, parent: QWidget | None = None) -> Actor | None:
    """The start-up sign-in (first administrator on a new database); None: cancelled."""
    from fieldops.services.signin import needs_first_admin

    if needs_first_admin(db):
        first = FirstAdminDialog(db, parent)
        if first.exec() != QDialog.DialogCode.Accepted or first.actor is None:
            return None
        return first.actor
    dialog = SignInDialog(db, parent=parent)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.signed is None:
        return None
    signed = dialog.signed
    if signed.must_change_password:
        change = ChangePasswordDialog(db, signed.actor, forced=True, parent=parent)
        if change.exec() != QDialog.DialogCode.Accepted:
            return None
    return signed.actor
