"""The "Reports" area: record reports as PDF, for supervisors and operators alike.

The register of impounded animals (city code 58-528) for a period. Reading the
rows and rendering the PDF is one task, so a year's register never freezes
the window; only then is the user asked where to save it (nothing to save
means no question). A second task writes the file under a temporary name in
the same folder and renames it, so a full disk or a crash never leaves half a
register under the name the user chose. Print and Open prepare it the same
way, then hand it to the printer chosen in Qt's print dialog, or a temporary
copy to the system's PDF viewer (ui/common/documents.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QFontDatabase
from PySide6.QtWidgets import (
    QDateEdit,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fieldops.db.engine import Database
from fieldops.errors import UserError
from fieldops.reports import impound_register
from fieldops.rules import Profile
from fieldops.services.registers import impound_register_rows
from ui.common.documents import (
    PrintingError,
    PrintJob,
    ask_printer,
    send_to_printer,
    viewing_copy,
    write_document,
)
from ui.common.file_dialogs import ask_save_path
from ui.common.forms import FormFields, form_layout, show_refusal
from ui.common.style import paint_page_white
from ui.common.widgets import Banner, set_date
from ui.context import AppContext

SAVE_TEXT = "&Save PDF…"
PRINT_TEXT = "&Print…"
OPEN_TEXT = "&Open"
SAVE, PRINT, OPEN = "save", "print", "open"


@dataclass(frozen=True)
class RenderedRegister:
    """A register ready to save: the PDF and how many impoundments it lists."""

    pdf: bytes
    count: int
    period_start: date
    period_end: date

    @property
    def file_name(self) -> str:
        return register_file_name(self.period_start, self.period_end)


def register_file_name(start: date, end: date) -> str:
    return f"impound-register-{start.isoformat()}-to-{end.isoformat()}.pdf"


def render_register(
    db: Database,
    start: date,
    end: date,
    profile: Profile,
    *,
    at: datetime,
    jurisdiction: str,
    tz: tzinfo,
) -> RenderedRegister:
    """Read the period's impoundments and render the register (in a task)."""
    rows = impound_register_rows(db, start, end)
    pdf = impound_register(
        rows, period_start=start, period_end=end, jurisdiction=jurisdiction, tz=tz, printed_at=at
    )
    return RenderedRegister(pdf, len(rows), start, end)


def cli_equivalent(start: date, end: date) -> str:
    return (
        f"fieldops report register --from {start.isoformat()} --to {end.isoformat()} "
        f"--out {register_file_name(start, end)}"
    )


class ImpoundRegisterWidget(QWidget):
    """The 58-528 register for a period, saved as a PDF where the user chooses."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._busy = False
        heading = QLabel("Register of impounded animals (city code 58-528)")
        heading.setObjectName("SectionHeading")
        about = QLabel(
            "Every animal impounded in the period, one line each: its description, "
            "the date of impoundment and the disposition; for a release, the person "
            "it went to, the date of delivery and the fees paid."
        )
        about.setObjectName("FieldHint")
        about.setWordWrap(True)
        self.banner = Banner()
        form = form_layout()
        # A date edit does not stretch, and its error label would wrap to the date's
        # width (and be cut short) unless the field's box may grow.
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fields = FormFields(form)
        self.start = self.fields.add("period_start", "Fro&m:", self._date_edit())
        self.end = self.fields.add("period_end", "&To:", self._date_edit())
        today = ctx.today()
        set_date(self.start, today.replace(day=1))
        set_date(self.end, today)
        self.save_button = QPushButton(SAVE_TEXT)
        self.print_button = QPushButton(PRINT_TEXT)
        self.open_button = QPushButton(OPEN_TEXT)
        self._texts = {SAVE: SAVE_TEXT, PRINT: PRINT_TEXT, OPEN: OPEN_TEXT}
        self._buttons = {SAVE: self.save_button, PRINT: self.print_button, OPEN: self.open_button}
        for b in self._buttons.values():
            b.setAutoDefault(False)
        self._action = SAVE
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # busy: the render cannot say how far along it is
        self.progress.setMaximumWidth(160)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.status = QLabel()
        self.status.setObjectName("FieldHint")
        self.status.setWordWrap(True)
        cli_caption = QLabel("The same report from the command line:")
        cli_caption.setObjectName("FieldHint")
        self.cli_hint = QLabel()
        self.cli_hint.setObjectName("CommandLine")
        self.cli_hint.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.cli_hint.setWordWrap(True)  # breaks between arguments on a narrow window
        self.cli_hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.print_button)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.progress)
        buttons.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(heading)
        layout.addWidget(about)
        layout.addWidget(self.banner)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addSpacing(12)
        layout.addWidget(cli_caption)
        layout.addWidget(self.cli_hint)
        self.save_button.clicked.connect(self._on_save_button_clicked)
        self.print_button.clicked.connect(self._on_print_button_clicked)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.start.dateChanged.connect(self._on_period_date_changed)
        self.end.dateChanged.connect(self._on_period_date_changed)
        self.show_cli_hint()

    @staticmethod
    def _date_edit() -> QDateEdit:
        edit = QDateEdit()
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("ddd d MMM yyyy")
        edit.setMaximumWidth(180)
        return edit

    def period(self) -> tuple[date, date]:
        return self.start.date().toPython(), self.end.date().toPython()

    def is_busy(self) -> bool:
        return self._busy

    def show_cli_hint(self) -> None:
        self.cli_hint.setText(cli_equivalent(*self.period()))

    # -- the round trip ----------------------------------------------------

    def save_register(self) -> None:
        """Prepare the register for the chosen period, then ask where to save it."""
        self.prepare(SAVE)

    def print_register(self) -> None:
        """Prepare the register, then ask for a printer and send it there."""
        self.prepare(PRINT)

    def open_register(self) -> None:
        """Prepare the register and show it in the system's PDF viewer."""
        self.prepare(OPEN)

    def prepare(self, action: str) -> None:
        if self._busy:
            return
        self._action = action
        start, end = self.period()
        self.fields.clear_errors()
        self.banner.clear_message()
        self._set_busy("Preparing…", "Preparing the register…")
        self.ctx.tasks.run(
            render_register,
            self.ctx.db,
            start,
            end,
            self.ctx.profile,
            at=self.ctx.now(),
            jurisdiction=self.ctx.jurisdiction,
            tz=self.ctx.timezone,
            owner=self,
            on_done=self._on_register_rendered,
            on_error=self._on_register_failed,
        )

    def ask_save_path(self, suggested_name: str) -> str:
        """Where to save the PDF; "" when the user cancels (tests replace this)."""
        return ask_save_path(
            self,
            "Save the register",
            suggested_name,
            self.ctx.db.folder,
            lambda message: self.ctx.errors.tell(message, self),
        )

    def ask_printer(self, title: str) -> PrintJob | None:
        """The printer chosen in Qt's print dialog; None when cancelled (tests replace this)."""
        return ask_printer(self, title)

    def open_in_viewer(self, path: str) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def write(self, register: RenderedRegister, path: str) -> None:
        self._set_busy("Saving…", f"Writing {path}…")
        self.ctx.tasks.run(
            write_document,
            path,
            register.pdf,
            self.ctx.db.folder,
            owner=self,
            on_done=lambda written: self._on_pdf_written(register, written),
            on_error=lambda exc: self._on_write_failed(path, exc),
        )

    def _set_busy(self, button_text: str, status: str) -> None:
        self._busy = True
        for b in self._buttons.values():
            b.setEnabled(False)
        self._buttons[self._action].setText(button_text)
        self.progress.show()
        self.status.setText(status)

    def _set_idle(self, status: str = "") -> None:
        self._busy = False
        for action, b in self._buttons.items():
            b.setEnabled(True)
            b.setText(self._texts[action])
        self.progress.hide()
        self.status.setText(status)

    def _on_register_rendered(self, register: RenderedRegister) -> None:
        if self._action == PRINT:
            self._print(register)
            return
        if self._action == OPEN:
            self._set_busy("Opening…", "Opening the register…")
            self.ctx.tasks.run(
                viewing_copy,
                register.pdf,
                register.file_name,
                self.ctx.db.folder,
                owner=self,
                on_done=self._on_copy_ready,
                on_error=lambda exc: self._on_write_failed("a temporary copy", exc),
            )
            return
        self.status.setText("Choose where to save the register.")
        path = self.ask_save_path(register.file_name)
        if not path:
            self._set_idle("Not saved: no file was chosen.")
            return
        self.write(register, path)

    def _print(self, register: RenderedRegister) -> None:
        title = (
            f"Register of impounded animals, {register.period_start.isoformat()} to "
            f"{register.period_end.isoformat()}"
        )
        self.status.setText("Choose a printer.")
        job = self.ask_printer(title)
        if job is None:
            self._set_idle("Not printed: no printer was chosen.")
            return
        self._set_busy("Printing…", "Sending the register to the printer…")
        self.ctx.tasks.run(
            send_to_printer,
            register.pdf,
            job,
            owner=self,
            on_done=lambda said: self._on_printed(register, job, said),
            on_error=self._on_print_failed,
        )

    def _on_printed(self, register: RenderedRegister, job: PrintJob, said: str) -> None:
        self._set_idle()
        n = register.count
        where = job.printer or "the default printer"
        self.banner.show_note(
            f"{n} impoundment{'' if n == 1 else 's'} sent to {where}."
            + (f" {said}" if said else "")
        )

    def _on_print_failed(self, exc: BaseException) -> bool:
        self._set_idle()
        if isinstance(exc, PrintingError):
            self.banner.show_error(str(exc))
            return True
        self.banner.show_error("The register was not printed because of an error in FieldOps.")
        return False

    def _on_copy_ready(self, path: Path) -> None:
        self._set_idle(f"Opened {path.name} in the PDF viewer.")
        self.open_in_viewer(str(path))

    def _on_register_failed(self, exc: BaseException) -> bool:
        self._set_idle()
        return show_refusal(
            exc,
            self.fields,
            self.banner,
            invalid="Nothing was written: correct the period.",
            bug="The register was not prepared because of an error in FieldOps.",
        )

    def _on_pdf_written(self, register: RenderedRegister, path: str) -> None:
        self._set_idle()
        n = register.count
        self.banner.show_note(f"{n} impoundment{'' if n == 1 else 's'} written to {path}")
        if self.ctx.errors.interactive:
            QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    def _on_write_failed(self, path: str, exc: BaseException) -> bool:
        self._set_idle()
        if isinstance(exc, UserError):  # the database's folder: said as written
            self.banner.show_error(f"Nothing was written to {path}. {exc}")
            return True
        if isinstance(exc, OSError):
            self.banner.show_error(
                f"Nothing was written to {path}: "
                f"{exc.strerror or exc}. Choose another folder or free "
                "some disk space, then save again."
            )
            return True
        self.banner.show_error("The register was not written because of an error in FieldOps.")
        return False

    # -- slots -------------------------------------------------------------

    def _on_save_button_clicked(self) -> None:
        self.save_register()

    def _on_print_button_clicked(self) -> None:
        self.print_register()

    def _on_open_button_clicked(self) -> None:
        self.open_register()

    def _on_period_date_changed(self) -> None:
        self.show_cli_hint()


class ReportsWidget(QWidget):
    """The Reports page; more reports join the register here as they are written."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("ReportsWidget")
        paint_page_white(self)
        heading = QLabel("Reports")
        heading.setObjectName("PageHeading")
        self.register = ImpoundRegisterWidget(ctx)
        self.register.setMaximumWidth(900)  # lines a reader can follow on a wide screen
        self.setFocusProxy(self.register.start)
        later = QLabel(
            "Daily activity, the quarantine register and fees collected will "
            "follow in a later version."
        )
        later.setObjectName("FieldHint")
        later.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 18)
        layout.addWidget(heading)
        layout.addSpacing(8)
        layout.addWidget(self.register)
        layout.addStretch(1)
        layout.addWidget(later)
