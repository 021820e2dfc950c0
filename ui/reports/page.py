"""The "Reports" area: every module's record reports, previewed, printed, saved, exported.

Pick a report (every ``ReportKind`` on the seam) and a period (last month, this
year, or custom dates), then Preview, Print, Save PDF or Export CSV; "Public-
records copy" builds the copy with the private parts withheld. Building runs
in a task with a progress bar and a Cancel that stops it between steps and
drops its result; a save writes under a temporary name and renames
(``fieldops.files.write_whole_file``), so a failed or cancelled save never
leaves half a file. The preview draws the very PDF that is saved and printed
(``ui.reports.preview``), charts included.
"""

from __future__ import annotations

import threading
from datetime import date, timedelta
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from fieldops.errors import UserError
from fieldops.modules import ReportKind, report_kinds
from fieldops.permissions import Permission
from fieldops.services import reports_run
from ui.account import can
from ui.common.documents import PrintingError, PrintJob
from ui.common.file_dialogs import PDF_FILTER, ask_save_path
from ui.common.forms import FormFields, form_layout, show_refusal
from ui.common.style import paint_page_white
from ui.common.widgets import Banner, date_of, set_date
from ui.context import AppContext
from ui.reports.jobs import Built, build_report, export_report, print_report
from ui.reports.printing import ask_report_printer

PREVIEW, PRINT, SAVE, CSV = "preview", "print", "save", "csv"
TEXTS = {PREVIEW: "Pre&view", PRINT: "&Print…", SAVE: "&Save PDF…", CSV: "E&xport CSV…"}
BUSY_TEXTS = {PREVIEW: "Preparing…", PRINT: "Preparing…", SAVE: "Preparing…", CSV: "Preparing…"}
PRESETS = (("Last month", "last_month"), ("This year", "this_year"), ("Custom dates", "custom"))
CSV_FILTER = "CSV for a spreadsheet (*.csv)"


def preset_period(preset: str, today: date) -> tuple[date, date] | None:
    """The period a preset names, on ``today``; None for custom dates."""
    if preset == "last_month":
        last = today.replace(day=1) - timedelta(days=1)
        return last.replace(day=1), last
    if preset == "this_year":
        return today.replace(month=1, day=1), today
    return None


class ReportsWidget(QWidget):
    """The Reports page."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ReportsWidget")
        paint_page_white(self)
        self._busy = False
        self._action = PREVIEW
        self._task = 0
        self._cancel = threading.Event()
        self._progress: list[int] = [0, 0]  # written by the task, read by the timer
        self._built: tuple[tuple[object, ...], Built] | None = None
        heading = QLabel("Reports")
        heading.setObjectName("PageHeading")
        self.banner = Banner()
        form = form_layout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fields = FormFields(form)
        self.kinds: tuple[ReportKind, ...] = report_kinds()
        self.kind = self.fields.add("report", "Rep&ort:", QComboBox())
        for k in self.kinds:
            self.kind.addItem(k.title, k.name)
        self.about = QLabel()
        self.about.setObjectName("FieldHint")
        self.about.setWordWrap(True)
        self.preset = self.fields.add("preset", "P&eriod:", QComboBox())
        for label, code in PRESETS:
            self.preset.addItem(label, code)
        self.start = self.fields.add("period_start", "Fro&m:", self._date_edit())
        self.end = self.fields.add("period_end", "&To:", self._date_edit())
        self.redacted = QCheckBox("P&ublic-records copy (private parts withheld, and said so)")
        form.addRow("", self.redacted)
        self.buttons = {a: QPushButton(t) for a, t in TEXTS.items()}
        self.preview_button, self.print_button = self.buttons[PREVIEW], self.buttons[PRINT]
        self.save_button, self.csv_button = self.buttons[SAVE], self.buttons[CSV]
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.hide()
        self.status = QLabel()
        self.status.setObjectName("FieldHint")
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        for b in [*self.buttons.values(), self.cancel_button]:
            b.setAutoDefault(False)
            row.addWidget(b)
        row.addWidget(self.progress)
        row.addWidget(self.status, 1)
        self.cli_hint = QLabel()
        self.cli_hint.setObjectName("CommandLine")
        self.cli_hint.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.cli_hint.setWordWrap(True)
        self.cli_hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_note = QLabel("Preview shows the report's pages here.")
        self.preview_note.setObjectName("FieldHint")
        self.pages_box = QWidget()
        self.pages_layout = QVBoxLayout(self.pages_box)
        self.pages_layout.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.page_labels: list[QLabel] = []
        self.preview_area = QScrollArea()
        self.preview_area.setWidgetResizable(True)
        self.preview_area.setWidget(self.pages_box)
        controls = QWidget()
        controls.setMaximumWidth(900)
        top = QVBoxLayout(controls)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.banner)
        top.addLayout(form)
        top.addWidget(self.about)
        top.addLayout(row)
        top.addWidget(self.cli_hint)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 18)
        layout.addWidget(heading)
        layout.addWidget(controls)
        layout.addWidget(self.preview_note)
        layout.addWidget(self.preview_area, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._on_timer_timeout)
        for action, button in self.buttons.items():
            button.clicked.connect(lambda _=False, a=action: self.run_report(a))
        self.cancel_button.clicked.connect(self._on_cancel_button_clicked)
        self.kind.currentIndexChanged.connect(self._on_choice_changed)
        self.preset.currentIndexChanged.connect(self._on_preset_changed)
        self.start.dateChanged.connect(self._on_date_changed)
        self.end.dateChanged.connect(self._on_date_changed)
        self.redacted.toggled.connect(self._on_choice_changed)
        self.setFocusProxy(self.kind)
        self._on_preset_changed()
        self._on_choice_changed()
        self.allowed = can(ctx, Permission.REPORTS)  # the report service refuses anyway
        if not self.allowed:
            for b in self.buttons.values():
                b.setEnabled(False)
            self.banner.show_note("Record reports are a supervisor's task; ask a supervisor.")

    @staticmethod
    def _date_edit() -> QDateEdit:
        edit = QDateEdit()
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("ddd d MMM yyyy")
        edit.setMaximumWidth(180)
        return edit

    # -- what is asked ---------------------------------------------------------

    def report_name(self) -> str:
        return str(self.kind.currentData() or "")

    def period(self) -> tuple[date, date]:
        return date_of(self.start.date()), date_of(self.end.date())

    def choose(self, name: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(name))

    def choose_preset(self, code: str) -> None:
        self.preset.setCurrentIndex(self.preset.findData(code))

    def is_busy(self) -> bool:
        return self._busy

    def _key(self) -> tuple[object, ...]:
        return (self.report_name(), *self.period(), self.redacted.isChecked())

    def file_name(self, fmt: str) -> str:
        kind = reports_run.find_report(self.report_name())
        return reports_run.default_file_name(kind, *self.period(), fmt, self.redacted.isChecked())

    def cli_equivalent(self) -> str:
        start, end = self.period()
        public = " --redacted" if self.redacted.isChecked() else ""
        return (
            f"fieldops report {self.report_name()} --from {start.isoformat()} "
            f"--to {end.isoformat()} -o {self.file_name('pdf')}{public}"
        )

    # -- the round trip ----------------------------------------------------------

    def run_report(self, action: str) -> None:
        """Build the report (or reuse the one built for the same choices), then act."""
        if self._busy or not self.report_name():
            return
        self._action = action
        self.fields.clear_errors()
        self.banner.clear_message()
        key = self._key()
        if action != PREVIEW and self._built is not None and self._built[0] == key:
            self._on_built(key, self._built[1])
            return
        start, end = self.period()
        self._cancel = threading.Event()
        self._progress[:] = [0, 0]
        self._set_busy(f"Preparing {self.kind.currentText()}…", cancellable=True)
        self._task = self.ctx.tasks.run(
            build_report,
            self.ctx.db,
            self.ctx.actor,
            self.report_name(),
            start,
            end,
            self.ctx.profile,
            redacted=self.redacted.isChecked(),
            at=self.ctx.now(),
            cancelled=self._cancel.is_set,
            progress=self._on_task_progress,
            preview=action == PREVIEW,
            owner=self,
            on_done=lambda built: self._on_built(key, built),
            on_error=self._on_build_failed,
        )

    def cancel(self) -> None:
        """Stop the report being built; nothing is saved, printed or shown."""
        if not self._busy or not self.cancel_button.isVisible():
            return
        self._cancel.set()
        self.ctx.tasks.cancel(self._task)
        self._set_idle("Cancelled: nothing was saved or printed.")

    def ask_save_path(self, suggested_name: str, fmt: str) -> str:
        """Where to save; "" when the user cancels (tests replace this)."""
        return ask_save_path(
            self,
            "Export the report as CSV" if fmt == "csv" else "Save the report",
            suggested_name,
            self.ctx.db.folder,
            lambda message: self.ctx.errors.tell(message, self),
            CSV_FILTER if fmt == "csv" else PDF_FILTER,
        )

    def ask_printer(self, title: str) -> PrintJob | None:
        """The print dialog, its setup remembered; None when cancelled (tests replace this)."""
        return ask_report_printer(self, title)

    def _on_built(self, key: tuple[object, ...], built: Built) -> None:
        self._built = (key, built)
        if self._action == PREVIEW:
            self._show_pages(built)
            self._set_idle(f"{self._rows(built)} in the preview.")
            return
        if self._action == PRINT:
            self._print(built)
            return
        fmt = "csv" if self._action == CSV else "pdf"
        self.status.setText("Choose where to save the report.")
        path = self.ask_save_path(self.file_name(fmt), fmt)
        if not path:
            self._set_idle("Not saved: no file was chosen.")
            return
        if not Path(path).suffix:
            path += f".{fmt}"
        self._set_busy(f"Writing {path}…", cancellable=False)
        self.ctx.tasks.run(
            export_report,
            self.ctx.db,
            self.ctx.actor,
            built,
            path,
            owner=self,
            on_done=lambda written: self._on_written(built, written),
            on_error=lambda exc: self._on_write_failed(path, exc),
        )

    def _print(self, built: Built) -> None:
        start, end = self.period()
        title = f"{built.produced.kind.title}, {start.isoformat()} to {end.isoformat()}"
        self.status.setText("Choose a printer.")
        job = self.ask_printer(title)
        if job is None:
            self._set_idle("Not printed: no printer was chosen.")
            return
        self._set_busy("Sending the report to the printer…", cancellable=False)
        self.ctx.tasks.run(
            print_report,
            self.ctx.db,
            self.ctx.actor,
            built,
            job,
            owner=self,
            on_done=lambda said: self._on_printed(built, job, said),
            on_error=self._on_print_failed,
        )

    def _show_pages(self, built: Built) -> None:
        for label in self.page_labels:
            self.pages_layout.removeWidget(label)
            label.deleteLater()
        self.page_labels = []
        for image in built.pages:
            label = QLabel()
            label.setPixmap(QPixmap.fromImage(image))
            label.setObjectName("ReportPage")
            self.pages_layout.addWidget(label)
            self.page_labels.append(label)
        n = len(built.pages)
        self.preview_note.setText(
            f"{built.produced.kind.title}: {n} page{'' if n == 1 else 's'}."
            if n
            else "This computer has nothing to draw PDF pages with: save the PDF and "
            "open it, or export the CSV, to read the report."
        )

    @staticmethod
    def _rows(built: Built) -> str:
        return f"{built.rows} line{'' if built.rows == 1 else 's'}"

    # -- outcomes ------------------------------------------------------------------

    def _on_written(self, built: Built, path: Path) -> None:
        self._set_idle()
        self.banner.show_note(f"{self._rows(built)} written to {path}")

    def _on_printed(self, built: Built, job: PrintJob, said: str) -> None:
        self._set_idle()
        where = job.printer or "the default printer"
        self.banner.show_note(
            f"{self._rows(built)} sent to {where}." + (f" {said}" if said else "")
        )

    def _on_build_failed(self, exc: BaseException) -> bool:
        self._set_idle()
        return show_refusal(
            exc,
            self.fields,
            self.banner,
            invalid="Nothing was written: correct the period.",
            bug="The report was not prepared because of an error in FieldOps.",
        )

    def _on_write_failed(self, path: str, exc: BaseException) -> bool:
        self._set_idle()
        if isinstance(exc, UserError):
            self.banner.show_error(f"Nothing was written to {path}. {exc}")
            return True
        if isinstance(exc, OSError):
            self.banner.show_error(
                f"Nothing was written to {path}: {exc.strerror or exc}. Choose another "
                "folder or free some disk space, then save again."
            )
            return True
        self.banner.show_error("The report was not written because of an error in FieldOps.")
        return False

    def _on_print_failed(self, exc: BaseException) -> bool:
        self._set_idle()
        if isinstance(exc, PrintingError):
            self.banner.show_error(str(exc))
            return True
        self.banner.show_error("The report was not printed because of an error in FieldOps.")
        return False

    # -- busy and idle ---------------------------------------------------------

    def _set_busy(self, status: str, *, cancellable: bool) -> None:
        self._busy = True
        for b in self.buttons.values():
            b.setEnabled(False)
        self.buttons[self._action].setText(BUSY_TEXTS[self._action])
        self.cancel_button.setVisible(cancellable)
        self.progress.setRange(0, 0)
        self.progress.show()
        self.status.setText(status)
        self.timer.start()

    def _set_idle(self, status: str = "") -> None:
        self._busy = False
        self.timer.stop()
        for action, b in self.buttons.items():
            b.setEnabled(self.allowed)
            b.setText(TEXTS[action])
        self.cancel_button.hide()
        self.progress.hide()
        self.status.setText(status)

    # -- slots -------------------------------------------------------------------

    def _on_task_progress(self, done: int, total: int) -> None:
        self._progress[:] = [done, total]  # on the worker: only a list is touched

    def _on_timer_timeout(self) -> None:
        done, total = self._progress
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    def _on_cancel_button_clicked(self) -> None:
        self.cancel()

    def _on_preset_changed(self) -> None:
        period = preset_period(str(self.preset.currentData()), self.ctx.today())
        if period is not None:
            for edit, day in zip((self.start, self.end), period, strict=True):
                edit.blockSignals(True)
                set_date(edit, day)
                edit.blockSignals(False)
        self._on_choice_changed()

    def _on_date_changed(self) -> None:
        if preset_period(str(self.preset.currentData()), self.ctx.today()) != self.period():
            self.preset.blockSignals(True)
            self.choose_preset("custom")
            self.preset.blockSignals(False)
        self._on_choice_changed()

    def _on_choice_changed(self) -> None:
        index = self.kind.currentIndex()
        self.about.setText(self.kinds[index].description if index >= 0 else "")
        if self.report_name():
            self.cli_hint.setText(self.cli_equivalent())
