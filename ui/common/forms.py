"""Record forms: fields with their errors beside them, and the save round trip.

A service's ``ValidationError`` names each bad field; ``FormFields`` puts the
message in a red label under that field and highlights it. Nothing typed is
cleared, and since the services validate before they write, nothing is saved.
``RecordDialog`` runs the save through ``ui.tasks`` and routes its errors:
field errors beside the fields, a stale record as a message (the form stays
open so the user can copy what they typed), anything else to the router.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTabBar,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import StaleRecordError, UserError, ValidationError
from ui.common.field_marks import FieldMarks
from ui.common.widgets import Banner
from ui.context import AppContext
from ui.errors import not_saved_text

W = TypeVar("W", bound=QWidget)


def _repolish(widget: QWidget) -> None:
    widget.style().unpolish(widget)
    widget.style().polish(widget)


def fit_window_height(widget: QWidget) -> None:
    """Grow ``widget``'s window to the height its layout needs at its width, once the
    layout has taken in what was just shown: a wrapped error under a field needs more
    lines than the window was sized for, and Qt does not grow a window for a label's
    height-for-width (the last line was cut off). Never past the screen; a window
    taller than needed keeps its height."""
    win = widget.window()

    def fit() -> None:
        layout = win.layout()
        if layout is None or not win.isVisible():
            return
        need = (
            layout.totalHeightForWidth(win.width())
            if layout.hasHeightForWidth()
            else layout.totalSizeHint().height()
        )
        screen = win.screen()
        if screen is not None:
            need = min(need, screen.availableGeometry().height())
        if need > win.height():
            win.resize(win.width(), need)

    QTimer.singleShot(0, win, fit)


class MarkedFields:
    """Named inputs, each with an error label; a ValidationError marks them.

    Two fields may share one label (a payment row's kind and amount): their
    messages are shown together.
    """

    def __init__(self) -> None:
        self._inputs: dict[str, QWidget] = {}
        self._errors: dict[str, QLabel] = {}
        self._order: list[str] = []

    def _register(self, name: str, widget: QWidget, error: QLabel) -> None:
        self._inputs[name] = widget
        self._errors[name] = error
        self._order.append(name)

    def __contains__(self, name: str) -> bool:
        return name in self._inputs

    def input(self, name: str) -> QWidget:
        return self._inputs[name]

    def error_text(self, name: str) -> str:
        label = self._errors[name]
        return label.text() if not label.isHidden() else ""

    def is_marked(self, name: str) -> bool:
        return bool(self._inputs[name].property("invalid"))

    def show_errors(self, error: ValidationError) -> list[str]:
        """Mark each named field; returns the messages for fields this form lacks."""
        self.clear_errors()
        unplaced = []
        for fe in error.errors:
            if fe.field not in self._inputs:
                unplaced.append(fe.message)
                continue
            label = self._errors[fe.field]
            label.setText("\n".join(t for t in (label.text(), fe.message) if t))
            label.show()
            self._inputs[fe.field].setProperty("invalid", True)
            _repolish(self._inputs[fe.field])
        marked = [n for n in self._order if self.is_marked(n)]
        if marked:
            self._inputs[marked[0]].setFocus(Qt.FocusReason.OtherFocusReason)
            fit_window_height(self._inputs[marked[0]])
        return unplaced

    def clear_errors(self) -> None:
        for name in self._errors:
            self.unmark(name)

    def mark(self, name: str, message: str) -> None:
        """Mark one field, leaving the others and the focus as they are (a check that
        answers while the user types elsewhere)."""
        label = self._errors[name]
        label.setText(message)
        label.show()
        if not self._inputs[name].property("invalid"):
            self._inputs[name].setProperty("invalid", True)
            _repolish(self._inputs[name])
        fit_window_height(label)

    def unmark(self, name: str) -> None:
        label = self._errors[name]
        label.clear()
        label.hide()
        if self._inputs[name].property("invalid"):
            self._inputs[name].setProperty("invalid", False)
            _repolish(self._inputs[name])


class FormFields(MarkedFields):
    """Named fields of one form layout, each with an error label under it."""

    def __init__(self, layout: QFormLayout) -> None:
        super().__init__()
        self.layout = layout
        self._captions: dict[str, str] = {}

    def caption(self, name: str) -> str:
        """The field's label as the user reads it ("Reported by"), without its mnemonic."""
        return self._captions.get(name) or name.replace("_", " ")

    def add(
        self,
        name: str,
        label: str,
        widget: W,
        *,
        focus: QWidget | None = None,
        hint: str = "",
    ) -> W:
        """Add a row; ``label`` may carry a mnemonic (``&Name``) that focuses ``focus``."""
        focus = focus or widget
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        # The row takes the form's width so an error under a narrow input (a date, a
        # choice) wraps to the form, not to the input, and is never cut short; the
        # input itself keeps its own width.
        box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        grows = widget.sizePolicy().horizontalPolicy() in (
            QSizePolicy.Policy.Expanding,
            QSizePolicy.Policy.MinimumExpanding,
            QSizePolicy.Policy.Ignored,
        )
        column.addWidget(widget, 0, Qt.AlignmentFlag(0) if grows else Qt.AlignmentFlag.AlignLeft)
        if hint:
            note = QLabel(hint)
            note.setObjectName("FieldHint")
            note.setWordWrap(True)
            column.addWidget(note)
        error = QLabel()
        error.setObjectName("FieldError")
        error.setWordWrap(True)
        error.hide()
        column.addWidget(error)
        caption = QLabel(label)
        caption.setBuddy(focus)
        self._captions[name] = re.sub(r"&(&?)", r"\1", label).strip().rstrip(":")
        self.layout.addRow(caption, box)
        self._register(name, focus, error)
        return widget


def show_refusal(
    exc: BaseException, fields: FieldMarks, banner: Banner, *, invalid: str, bug: str
) -> bool:
    """Say on the form why nothing happened: field errors beside their fields and
    ``invalid`` in the banner, a user error as written, otherwise ``bug``.
    Returns False for a bug, so the error router shows its details."""
    if isinstance(exc, ValidationError):
        unplaced = fields.show_errors(exc)
        banner.show_error(invalid + "".join(f"\n{m}" for m in unplaced))
        return True
    if isinstance(exc, UserError):
        banner.show_error(str(exc))
        return True
    banner.show_error(not_saved_text(exc) or bug)  # a full disk is not a bug (issue 13)
    return False


def form_state(root: QWidget) -> tuple[object, ...]:
    """Everything typed or chosen in a form, to tell whether it has unsaved changes."""
    state: list[object] = []
    for w in root.findChildren(QLineEdit):
        if not w.isReadOnly() and not isinstance(w.parent(), QAbstractSpinBox | QComboBox):
            state.append(w.text())
    state += [w.toPlainText() for w in root.findChildren(QPlainTextEdit) if not w.isReadOnly()]
    state += [w.toPlainText() for w in root.findChildren(QTextEdit) if not w.isReadOnly()]
    state += [w.currentIndex() for w in root.findChildren(QComboBox)]
    state += [w.isChecked() for w in root.findChildren(QAbstractButton) if w.isCheckable()]
    state += [
        w.dateTime().toString(Qt.DateFormat.ISODate) for w in root.findChildren(QDateTimeEdit)
    ]
    return tuple(state)


def form_layout() -> QFormLayout:
    layout = QFormLayout()
    layout.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
    layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    layout.setHorizontalSpacing(12)
    layout.setVerticalSpacing(6)
    return layout


class RecordDialog(QDialog):
    """A form window with a banner, Save (Ctrl+S) and Close (Esc).

    Subclasses lay out ``self.body``, fill ``self.fields`` and call
    ``save_with(service, *args)``; ``_on_record_saved(view)`` receives the
    service's answer. ``close_on_save`` closes the dialog after a save.
    """

    saved = Signal(object)  # the frozen view the service returned
    close_on_save = False
    #: A counter form, where a barcode scanner types into a field and ends with Enter:
    #: Enter in a field (a line, a number or date, a drop-down, a tick box) moves on to the
    #: next field and never saves. The Save button (clicked, or Enter on it), and Ctrl+S,
    #: still save.
    enter_moves_on = False

    def __init__(self, ctx: AppContext, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.banner = Banner()
        self.body = QVBoxLayout()
        self.buttons = QDialogButtonBox()
        self.save_button = QPushButton("&Save")
        self.save_button.setToolTip("Save (Ctrl+S)")
        self.buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.setText("&Close")
        self.close_button.setToolTip("Close without saving (Esc)")
        # AcceptRole would close the dialog: the save decides that itself.
        self.save_button.clicked.connect(self._on_save_button_clicked)
        self.buttons.rejected.connect(self.reject)
        save_action = QAction("Save", self)
        save_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Save))
        save_action.triggered.connect(self._on_save_button_clicked)
        self.addAction(save_action)
        outer = QVBoxLayout(self)
        outer.addWidget(self.banner)
        outer.addLayout(self.body, 1)
        outer.addWidget(self.buttons)
        self._make_save_the_default()
        self._saving = False
        self._save_text = self.save_button.text()
        self._clean_state: tuple[object, ...] | None = None
        # One key per opening, sent with every attempt to save a new record: a retry after
        # a save whose reply was lost returns the record it made instead of a second one.
        self.client_key = str(uuid.uuid4())

    # -- for subclasses --------------------------------------------------

    fields: FieldMarks

    def save(self) -> None:
        """Read the form and call the service (subclasses)."""
        raise NotImplementedError

    def _on_record_saved(self, view: Any) -> None:
        """Show the saved record (subclasses)."""

    def save_with(self, service: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        self.fields.clear_errors()
        self.banner.clear_message()
        self._set_saving(True)
        self.ctx.tasks.run(
            service,
            *args,
            owner=self,
            on_done=self._on_save_done,
            on_error=self._on_save_failed,
            **kwargs,
        )

    def is_saving(self) -> bool:
        return self._saving

    def has_unsaved_changes(self) -> bool:
        return self._clean_state is not None and form_state(self) != self._clean_state

    def mark_clean(self) -> None:
        """Take the form as it is now as saved (after filling it, after a save)."""
        self._clean_state = form_state(self)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._clean_state is None:
            self.mark_clean()
            # Opened with the focus on a button (Save is first in the focus chain), one
            # Enter would save what nobody typed: start in the first field instead.
            focused = self.focusWidget()
            first = self.initial_focus()
            if first is not None and (focused is None or isinstance(focused, QAbstractButton)):
                first.setFocus(Qt.FocusReason.OtherFocusReason)

    def initial_focus(self) -> QWidget | None:
        """The field the form opens in: the first input in the focus chain (subclasses may say)."""
        w = self.nextInFocusChain()
        while w is not None and w is not self:
            if (
                w.window() is self
                and w.isVisibleTo(self)
                and w.isEnabled()
                and w.focusPolicy() & Qt.FocusPolicy.TabFocus
                and not isinstance(w, QPushButton | QTabBar)
            ):
                return w
            w = w.nextInFocusChain()
        return None

    def confirm_save(self) -> bool:
        """Asked before every save; a form whose save cannot be undone asks the user."""
        return True

    def _make_save_the_default(self) -> None:
        """Make Save the dialog's own default button, the one Enter presses.

        QDialog remembers its default button only when ``setDefault`` is called
        on a button that is already inside it; set earlier, the first button to
        take the focus and lose it again takes "default" away for good, and
        Enter stops saving. Any button with the focus is still pressed by Enter
        (autoDefault); the default returns to Save when the focus moves on.
        """
        self.save_button.setDefault(False)
        self.save_button.setDefault(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (
            self.enter_moves_on
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and _moves_on_from(self.focusWidget())
        ):
            event.accept()
            self.focusNextChild()
            return
        super().keyPressEvent(event)

    def reject(self) -> None:
        """Close (Esc); typed changes are never thrown away without asking, and a form
        whose save is under way waits for its answer: closed then, the user would not know
        whether the record was made, and might make it again."""
        if self._saving:
            self.banner.show_note("Saving: the form closes or says what is wrong in a moment.")
            return
        if self.has_unsaved_changes() and not self.ctx.errors.confirm(
            "You have changes that are not saved. Close and discard them?",
            "&Discard changes",
            "&Keep editing",
            self,
        ):
            return
        super().reject()

    # -- the round trip --------------------------------------------------

    def _set_saving(self, saving: bool) -> None:
        # A form may name its button for what it does ("&Record"): keep that name.
        if saving and not self._saving:
            self._save_text = self.save_button.text()
        self._saving = saving
        self.save_button.setEnabled(not saving)
        self.save_button.setText("Saving…" if saving else self._save_text)
        if not saving:
            # Disabling the default button hands "default" to Close; Enter saves again.
            self._make_save_the_default()

    def _on_save_button_clicked(self) -> None:
        if not self._saving and self.confirm_save():
            self.save()

    def _on_save_done(self, view: Any) -> None:
        self._set_saving(False)
        self.client_key = str(uuid.uuid4())  # confirmed: a further save is a new one
        self._on_record_saved(view)
        self.mark_clean()
        self.saved.emit(view)
        if self.close_on_save:
            self.accept()
        else:
            self.banner.show_note("Saved.")

    def _on_save_failed(self, exc: BaseException) -> bool:
        self._set_saving(False)
        count = len(exc.errors) if isinstance(exc, ValidationError) else 0
        placed = isinstance(exc, ValidationError) and any(
            e.field in self.fields for e in exc.errors
        )
        if not placed:
            lead = "Nothing was saved."  # the form has no field to mark: the reason follows
        elif count == 1:
            lead = "Nothing was saved: correct the marked field."
        else:
            lead = f"Nothing was saved: correct the {count} marked fields."
        handled = show_refusal(
            exc,
            self.fields,
            self.banner,
            invalid=lead,
            # The error may have come after the commit (a lost reply): the form's save key
            # makes another attempt return that record instead of a second one.
            bug="The save did not finish because of an error in FieldOps. Save again: "
            "a record already saved is not saved twice.",
        )
        if isinstance(exc, StaleRecordError):
            self.ctx.errors.tell(str(exc), self, "Not saved: the record changed")
        return handled


def _moves_on_from(widget: QWidget | None) -> bool:
    """A field Enter leaves for the next in a counter form: not a push button (Enter on
    one presses it) and not a multi-line text (Enter there is a new line)."""
    if isinstance(widget, QLineEdit | QAbstractSpinBox | QComboBox):
        return True
    return isinstance(widget, QAbstractButton) and not isinstance(widget, QPushButton)


def combo(items: Mapping[Any, str]) -> QComboBox:
    """A drop-down of ``items`` (value -> label), in their order; each entry's data is its value."""
    box = QComboBox()
    for value, label in items.items():
        box.addItem(label, value)
    return box
