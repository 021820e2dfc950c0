"""One impoundment: the hold, fees and payments, documents, history, and its disposition."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import StaleRecordError
from fieldops.permissions import Permission, permitted
from fieldops.services.history import record_history
from fieldops.services.impound_views import ImpoundView
from fieldops.services.impounds import get_impoundment
from fieldops.services.intake_corrections import move_kennel
from ui.account.gate import gate
from ui.common.cautions import CautionBanner
from ui.common.history import HISTORY_SENTENCE_COLUMN
from ui.common.style import POUND_STYLE
from ui.common.table_models import ListTableModel
from ui.common.text import countdown
from ui.common.widgets import Banner, RecordTableView
from ui.context import AppContext
from ui.impounds.columns import impound_history_columns
from ui.impounds.documents import DocumentsWidget
from ui.impounds.fees import FeesWidget
from ui.impounds.summary import SummaryWidget

if TYPE_CHECKING:
    from ui.impounds.correction_dialog import CorrectionDialog
    from ui.impounds.disposition_dialog import DispositionDialog
    from ui.impounds.intake_correction_dialog import IntakeCorrectionDialog
    from ui.impounds.payment_dialog import PaymentDialog
    from ui.impounds.release_wizard import ReleaseWizardDialog

OTHER_DISPOSITIONS = (
    ("transferred", "&Transfer to a shelter or rescue…"),
    ("euthanized", "&Humane destruction…"),
    ("died", "Record &death…"),
    ("escaped", "Record &escape…"),
)


def status_kind(v: ImpoundView, at: datetime) -> str:
    """The chip's style from the view's status code, never from its display words."""
    return {"closed": "closed", "adoptable": "adoptable"}.get(v.status_code(at), "hold")


class ImpoundmentDialog(QDialog):
    """The impoundment's record; reloads whenever anything changes it."""

    def __init__(self, ctx: AppContext, view: ImpoundView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ImpoundmentDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setStyleSheet(POUND_STYLE)
        self.resize(1120, 760)
        self._view = view
        self.banner = Banner()
        self.cautions = CautionBanner(ctx)  # the owner's and the addresses', if any
        self.title = QLabel()
        self.title.setObjectName("PageHeading")
        self.title.setWordWrap(True)  # a long description wraps; the window stays on screen
        self.status_chip = QLabel()
        self.status_chip.setObjectName("StatusChip")
        self.countdown = QLabel()
        self.countdown.setObjectName("Countdown")
        self.countdown.setWordWrap(True)
        self.summary = SummaryWidget(ctx)
        self.fees = FeesWidget(ctx)
        self.documents = DocumentsWidget(ctx)
        self.history_model = ListTableModel(impound_history_columns(ctx), parent=self)
        self.history_view = RecordTableView()
        self.history_view.setModel(self.history_model)
        self.history_view.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.summary, "&Record")
        self.tabs.addTab(self.fees, "&Fees and payments")
        self.tabs.addTab(self.documents, "&Documents")
        self.tabs.addTab(self.history_view, "&History")
        self.release_button = QPushButton("Re&lease…")
        self.release_button.setToolTip("Release to the owner or to someone else (adoption)")
        self.other_button = QPushButton("&Other disposition")
        self.other_menu = QMenu(self)
        self.other_actions = {}
        for kind, label in OTHER_DISPOSITIONS:
            action = self.other_menu.addAction(label)
            action.setData(kind)
            self.other_actions[kind] = action
        self.other_button.setMenu(self.other_menu)
        self.correct_button = QPushButton("Correct d&isposition…")
        self.correct_button.setToolTip(
            "A supervisor corrects a disposition recorded in error; "
            "the original stays on the record"
        )
        self.correct_intake_button = QPushButton("Correct in&take…")
        self.correct_intake_button.setToolTip(
            "Correct where and when the animal was found, its "
            "description or how it came in, with a reason"
        )
        self.close_button = QPushButton("&Close")
        for b in (
            self.release_button,
            self.other_button,
            self.correct_button,
            self.correct_intake_button,
            self.close_button,
        ):
            b.setAutoDefault(False)
        self._lay_out()
        self._connect()
        self.show_view(view)

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.status_chip, 0, Qt.AlignmentFlag.AlignVCenter)
        buttons = QHBoxLayout()
        buttons.addWidget(self.release_button)
        buttons.addWidget(self.other_button)
        buttons.addWidget(self.correct_button)
        buttons.addWidget(self.correct_intake_button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.cautions)
        layout.addLayout(top)
        layout.addWidget(self.countdown)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)

    def _connect(self) -> None:
        self.release_button.clicked.connect(self._on_release_button_clicked)
        self.other_menu.triggered.connect(self._on_other_menu_triggered)
        self.correct_button.clicked.connect(self._on_correct_button_clicked)
        self.correct_intake_button.clicked.connect(self._on_correct_intake_button_clicked)
        self.close_button.clicked.connect(self.close)
        self.fees.record_payment_requested.connect(self._on_fees_record_payment_requested)
        self.summary.move_kennel_requested.connect(self._on_summary_move_kennel_requested)
        self.ctx.bus.changed.connect(self._on_bus_changed)

    # -- showing ---------------------------------------------------------

    def impoundment_id(self) -> int:
        return self._view.id

    def view(self) -> ImpoundView:
        return self._view

    def show_view(self, v: ImpoundView) -> None:
        self._view = v
        status = v.status(self.ctx.now())
        self.setWindowTitle(f"Impoundment #{v.id} — {v.animal.summary}")
        self.title.setText(f"#{v.id}  {v.animal.summary}")
        self.status_chip.setText(status)
        self.status_chip.setProperty("kind", status_kind(v, self.ctx.now()))
        self.status_chip.style().unpolish(self.status_chip)
        self.status_chip.style().polish(self.status_chip)
        self.countdown.setText(countdown(v, self.ctx.now(), self.ctx.today()))
        self.summary.show_view(v)
        self.fees.show_view(v)
        self.documents.show_view(v)
        o = v.owner
        self.cautions.load((o.id if o else None,), (v.found_place, o.address if o else ""))
        # What the record's state allows, and only what the role may (the services refuse too).
        gate(self.ctx, self.release_button, Permission.RELEASES, v.in_custody)
        gate(self.ctx, self.other_button, Permission.RELEASES, v.in_custody)
        for action in self.other_actions.values():
            gate(self.ctx, action, Permission.RELEASES)
        gate(self.ctx, self.correct_intake_button, Permission.INTAKE)
        gate(self.ctx, self.fees.record_button, Permission.PAYMENTS)
        gate(self.ctx, self.summary.move_button, Permission.INTAKE)
        gate(self.ctx, self.summary.kennel, Permission.INTAKE)
        # Only a supervisor corrects a disposition (the service checks it too).
        self.correct_button.setVisible(
            not v.in_custody and permitted(self.ctx.actor.role, Permission.CORRECTIONS)
        )
        self.ctx.tasks.run(
            record_history,
            self.ctx.db,
            "impoundment",
            v.id,
            self.ctx.timezone,
            owner=self,
            on_done=self.history_model.set_rows,
        )

    def reload(self) -> None:
        self.ctx.tasks.run(
            get_impoundment,
            self.ctx.db,
            self._view.id,
            self.ctx.profile,
            self.ctx.now(),
            owner=self,
            on_done=self.show_view,
        )

    # -- actions ---------------------------------------------------------

    def open_release(self) -> ReleaseWizardDialog:
        from ui.impounds.release_wizard import ReleaseWizardDialog

        wizard = ReleaseWizardDialog(self.ctx, self._view, self)
        wizard.open()
        return wizard

    def open_disposition(self, kind: str) -> DispositionDialog:
        from ui.impounds.disposition_dialog import DispositionDialog

        dialog = DispositionDialog(self.ctx, self._view, kind, self)
        dialog.open()
        return dialog

    def open_correction(self) -> CorrectionDialog:
        from ui.impounds.correction_dialog import CorrectionDialog

        dialog = CorrectionDialog(self.ctx, self._view, self)
        dialog.saved.connect(self._on_correction_saved)
        dialog.open()
        return dialog

    def open_intake_correction(self) -> IntakeCorrectionDialog:
        from ui.impounds.intake_correction_dialog import IntakeCorrectionDialog

        dialog = IntakeCorrectionDialog(self.ctx, self._view, self)
        dialog.open()
        return dialog

    def open_payment(self) -> PaymentDialog:
        from ui.impounds.payment_dialog import PaymentDialog

        dialog = PaymentDialog(self.ctx, self._view, self.fees.fees, self)
        dialog.open()
        return dialog

    # -- slots -----------------------------------------------------------

    def _on_release_button_clicked(self) -> None:
        self.open_release()

    def _on_other_menu_triggered(self, action: QAction) -> None:
        self.open_disposition(action.data())

    def _on_correct_button_clicked(self) -> None:
        self.open_correction()

    def _on_correct_intake_button_clicked(self) -> None:
        self.open_intake_correction()

    def _on_fees_record_payment_requested(self) -> None:
        self.open_payment()

    def _on_summary_move_kennel_requested(self, kennel: str) -> None:
        self.ctx.tasks.run(
            move_kennel,
            self.ctx.db,
            self.ctx.actor,
            self._view.id,
            kennel,
            expected_version=self._view.version,
            owner=self,
            on_done=self._on_kennel_moved,
            on_error=self._on_kennel_move_failed,
        )

    def _on_correction_saved(self, view: ImpoundView) -> None:
        if view.notice:  # what the correction could not do itself (the registry owner)
            self.banner.show_note(view.notice)

    def _on_kennel_moved(self, _result: None) -> None:
        self.banner.show_note("Kennel changed.")
        self.ctx.bus.changed.emit("impoundment", self._view.id)

    def _on_kennel_move_failed(self, exc: BaseException) -> bool:
        if not isinstance(exc, StaleRecordError):
            return False  # the usual error report
        self.banner.show_error(str(exc))  # another workstation changed it: show theirs
        self.reload()
        return True

    def _on_bus_changed(self, entity: str, entity_id: int) -> None:
        if entity == "impoundment" and entity_id in (self._view.id, 0):
            self.reload()
