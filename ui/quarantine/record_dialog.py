"""One quarantine: its timeline, dates with "Why this date?", exams, events, the bite report,
history, and the actions an officer takes next."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.permissions import Permission
from fieldops.services.history import record_history
from fieldops.services.quarantine import QuarantineView, get_quarantine
from ui.account.gate import gate
from ui.common.cautions import CautionBanner
from ui.common.history import HISTORY_SENTENCE_COLUMN, history_columns
from ui.common.table_models import Column, ListTableModel
from ui.common.text import day, escape_html, money, when
from ui.common.widgets import Banner, RecordTableView
from ui.context import AppContext
from ui.quarantine.documents import QUARANTINE_TITLES, DocumentButtons, quarantine_documents
from ui.quarantine.event_dialogs import EVENTS, EventDialog, ExamDialog
from ui.quarantine.payments import PaymentsWidget
from ui.quarantine.private_contact import PrivateContact
from ui.quarantine.timeline import STATE_WORDS, TimelineWidget, marks

ACTIONS = (
    "delivered",
    "broken_home",
    "extended",
    "signs_of_rabies",
    "died",
    "euthanized",
    "specimen_sent",
    "escaped",
    "released",
    "certificate_received",
)


def exam_columns() -> tuple[Column, ...]:
    return (
        Column("Date", lambda x: day(x.examined_on), 130),
        Column("Counts as", lambda x: x.counts_as or "on no required day", 170),
        Column("Veterinarian", lambda x: x.veterinarian, 140),
        Column("Clinic", lambda x: x.clinic, 150),
        Column("Finding", lambda x: x.finding_label, 140),
        Column("Fee", lambda x: money(x.fee), 80),
        Column("Warning", lambda x: x.warning, 300),
    )


def event_columns(ctx: AppContext) -> tuple[Column, ...]:
    return (
        Column("When", lambda e: day(e.received_on) if e.received_on else when(ctx, e.at), 200),
        Column("What", lambda e: e.label, 220),
        Column("Who", lambda e: e.who, 160),
        Column(
            "Details",
            lambda e: "; ".join(
                x
                for x in (
                    e.clinic,
                    f"new last day {day(e.new_last_day)}" if e.new_last_day else "",
                    f"citation {e.citation}" if e.citation else "",
                    e.notes,
                )
                if x
            ),
            320,
        ),
    )


class QuarantineDialog(QDialog):
    """The record of one quarantine; it refreshes when anything about it changes."""

    def __init__(
        self, ctx: AppContext, view: QuarantineView, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.view = view
        self.setObjectName("QuarantineDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resize(1040, 800)
        self.banner = Banner()
        self.cautions = CautionBanner(ctx)  # the owner's, at their address or the bite's place
        self.heading = QLabel()
        self.heading.setObjectName("PageHeading")
        self.heading.setWordWrap(True)  # a long description wraps; the window stays on screen
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.timeline = TimelineWidget()
        self.tabs = QTabWidget()
        self.dates = QWidget()
        self.dates_grid = QGridLayout(self.dates)
        self.exams = ListTableModel(exam_columns(), parent=self)
        self.events = ListTableModel(event_columns(ctx), parent=self)
        self.history = ListTableModel(history_columns(ctx), parent=self)
        self.bite = QLabel()
        self.bite.setWordWrap(True)
        self.bite.setTextFormat(Qt.TextFormat.RichText)
        self.bite.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        for title, model in (("E&xams", self.exams), ("&Events", self.events)):
            table = RecordTableView()
            table.setModel(model)
            self.tabs.addTab(table, title)
        self.tabs.insertTab(0, self.dates, "&Dates")
        self.contact = PrivateContact(ctx)
        bite_tab = QWidget()
        bite_layout = QVBoxLayout(bite_tab)
        bite_layout.addWidget(self.bite)
        bite_layout.addWidget(self.contact)
        bite_layout.addStretch(1)
        self.tabs.addTab(bite_tab, "&Bite report")
        self.payments = PaymentsWidget(ctx)
        self.tabs.addTab(self.payments, "Pa&yments")
        self.documents = DocumentButtons(ctx, QUARANTINE_TITLES)
        documents_tab = QWidget()
        documents_layout = QVBoxLayout(documents_tab)
        documents_layout.addWidget(self.documents)
        documents_layout.addStretch(1)
        self.tabs.addTab(documents_tab, "Doc&uments")
        history = RecordTableView()
        history.setModel(self.history)
        history.wrap_rows(HISTORY_SENTENCE_COLUMN)
        self.tabs.addTab(history, "&History")
        self.tabs.setCurrentIndex(0)
        self.exam_button = QPushButton("&Record exam…")
        self.action_button = QPushButton("&Action")
        self.menu = QMenu(self)
        self.menu_actions = {}
        for kind in ACTIONS:
            act = self.menu.addAction(EVENTS[kind][0] + "…")
            act.triggered.connect(lambda _=False, k=kind: self.open_event(k))
            self.menu_actions[kind] = act
        self.action_button.setMenu(self.menu)
        self.correct_button = QPushButton("Correct a &mistake…")
        self.correct_button.setToolTip("A supervisor's task: kept beside the original, with why.")
        gate(ctx, self.correct_button, Permission.CORRECTIONS)
        self.correct_button.clicked.connect(self._on_correct_button_clicked)
        self.close_button = QPushButton("&Close")
        self.close_button.clicked.connect(self.close)
        self.exam_button.clicked.connect(self._on_exam_button_clicked)
        buttons = QHBoxLayout()
        for b in (self.exam_button, self.action_button, self.correct_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.cautions)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addWidget(self.timeline)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)
        ctx.bus.changed.connect(self._on_bus_changed)
        self.show_view(view)

    def quarantine_id(self) -> int:
        return self.view.id

    # -- showing -----------------------------------------------------------

    def show_view(self, v: QuarantineView) -> None:
        self.view = v
        self.cautions.load((v.bite.owner_id,), (v.bite.owner_address, v.bite.place))
        self.setWindowTitle(f"Quarantine #{v.id}: {v.bite.animal}")
        self.heading.setText(
            f"Quarantine #{v.id} — {v.bite.animal} — {v.status_label}"
            + (f", {v.day_label}" if v.is_open else "")
        )
        where = v.clinic if v.placement == "clinic" else "at the owner's home"
        self.summary.setText(
            f"Owner: {v.bite.owner}. Placement: {v.placement_label.lower()}, "
            f"{where}. Exam fees recorded: {money(v.exam_fees)} (the owner's)."
            + (
                f" Balance due at the pound: {money(v.fees.balance)}."
                if v.fees is not None and v.fees.balance
                else ""
            )
        )
        if v.warnings:
            self.banner.show_error("\n".join(v.warnings))
        else:
            self.banner.clear_message()
        first = v.bite.bitten_at.astimezone(self.ctx.timezone).date()
        self.timeline.set_marks(
            marks(v, self.ctx.today(), self.ctx.timezone),
            first,
            max(v.last_day, v.certificate_due) + timedelta(days=1),
        )
        self._fill_dates(v)
        self.exams.set_rows(v.exams)
        self.events.set_rows(v.events)
        self.bite.setText(self._bite_text(v))
        self.contact.set_report(v.bite.id, v.bite.has_victim_contact)
        self.payments.set_fees(v.fees)
        self.documents.set_documents(quarantine_documents(self.ctx, v))
        # Exams and events need the quarantine permission (the services refuse without it).
        for kind, act in self.menu_actions.items():
            gate(self.ctx, act, Permission.QUARANTINES, self._allowed(v, kind))
        gate(self.ctx, self.action_button, Permission.QUARANTINES)
        gate(self.ctx, self.exam_button, Permission.QUARANTINES, v.is_open)
        self.ctx.tasks.run(
            record_history,
            self.ctx.db,
            "quarantine",
            v.id,
            self.ctx.timezone,
            owner=self,
            on_done=self.history.set_rows,
        )

    def _allowed(self, v: QuarantineView, kind: str) -> bool:
        """What the buttons offer; the services decide and refuse the rest."""
        if kind == "specimen_sent":
            return v.status in ("died", "euthanized")
        if kind == "certificate_received":
            return v.certificate_received_on is None and v.status in ("open", "certified")
        if kind == "delivered":
            return v.is_open and v.placement == "clinic" and v.delivered_at is None
        if kind == "broken_home":
            return v.is_open and v.placement == "home"
        return v.is_open

    def _fill_dates(self, v: QuarantineView) -> None:
        while self.dates_grid.count():
            item = self.dates_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        rows = [
            ("Placement", v.placement_label + (f": {v.clinic}" if v.clinic else ""), "placement")
        ]
        if v.deliver_by is not None:
            rows.append(
                (
                    "Deliver to the clinic by",
                    when(self.ctx, v.deliver_by)
                    + (f" (delivered {when(self.ctx, v.delivered_at)})" if v.delivered_at else ""),
                    "deliver_by",
                )
            )
        state = {r.slot: f" — {STATE_WORDS[r.state]}" for r in v.required}
        rows.append(
            ("First exam", day(v.first_exam_day) + state.get("first", ""), "first_exam_day")
        )
        if v.window is not None:
            rows.append(
                (
                    "Intervening exam",
                    f"{day(v.window[0])} to {day(v.window[1])}" + state.get("intervening", ""),
                    "intervening_exam_window",
                )
            )
        rows.append(("Last day and last exam", day(v.last_day) + state.get("last", ""), "last_day"))
        rows.append(
            (
                "Certificate due",
                day(v.certificate_due)
                + (
                    f" (received {day(v.certificate_received_on)})"
                    if v.certificate_received_on
                    else ""
                ),
                "certificate_due",
            )
        )
        self.why_labels: dict[str, QLabel] = {}
        for i, (caption, value, key) in enumerate(rows):
            name = QLabel(f"<b>{caption}</b>")
            shown = QLabel(escape_html(value))
            shown.setObjectName(f"date_{key}")
            why = QLabel(escape_html(v.why.get(key, "")))
            why.setWordWrap(True)
            why.setObjectName("WhyText")
            why.hide()
            button = QToolButton()
            button.setText("Why this date?")
            button.setCheckable(True)
            button.toggled.connect(why.setVisible)
            self.dates_grid.addWidget(name, 2 * i, 0)
            self.dates_grid.addWidget(shown, 2 * i, 1)
            self.dates_grid.addWidget(button, 2 * i, 2)
            self.dates_grid.addWidget(why, 2 * i + 1, 1, 1, 2)
            self.why_labels[key] = why
        for j, note in enumerate(v.notes):
            self.dates_grid.addWidget(QLabel(escape_html(note)), 2 * len(rows) + j, 0, 1, 3)
        self.dates_grid.setColumnStretch(1, 1)
        self.dates_grid.setRowStretch(2 * len(rows) + len(v.notes), 1)

    def _bite_text(self, v: QuarantineView) -> str:
        b = v.bite
        e = escape_html
        parts = [
            f"<b>Bitten:</b> {e(b.victim_name)}, {e(when(self.ctx, b.bitten_at))}, at {e(b.place)}",
            f"<b>Animal:</b> {e(b.animal)}; <b>owner:</b> {e(b.owner)}"
            + (f", {e(b.owner_address)}" if b.owner_address else ""),
            f"<b>Reported by</b> {e(b.reported_by)} on {e(when(self.ctx, b.reported_at))}; "
            f"<b>officer:</b> {e(b.officer)}",
            f"<b>Rabies proof:</b> {e(b.rabies_certificate) or 'no certificate'}. "
            f"{e(b.rabies_why)}",
        ]
        if b.impoundment_id:
            parts.append(f"<b>In the pound:</b> impoundment #{b.impoundment_id}")
        if b.notes:
            parts.append(f"<b>Notes:</b> {e(b.notes)}")
        return "<br>".join(parts)

    # -- actions ------------------------------------------------------------

    def open_event(self, kind: str) -> EventDialog:
        dialog = EventDialog(self.ctx, self.view.id, kind, self)
        dialog.show()
        return dialog

    def _on_exam_button_clicked(self) -> None:
        self.open_exam()

    def open_exam(self) -> ExamDialog:
        dialog = ExamDialog(self.ctx, self.view.id, self, clinic_id=self.view.clinic_id)
        dialog.show()
        return dialog

    def _on_correct_button_clicked(self) -> None:
        self.open_correction()

    def open_correction(self) -> QDialog:
        from ui.quarantine.correction_dialog import CorrectionDialog

        dialog = CorrectionDialog(self.ctx, self.view, self)
        dialog.show()
        return dialog

    def _on_bus_changed(self, entity: str, record_id: int) -> None:
        # A payment at the pound's counter (on an impoundment) may pay this quarantine.
        if (entity == "quarantine" and record_id in (0, self.view.id)) or entity == "impoundment":
            self.ctx.tasks.run(
                get_quarantine,
                self.ctx.db,
                self.view.id,
                self.ctx.profile,
                self.ctx.today(),
                owner=self,
                on_done=self.show_view,
            )
