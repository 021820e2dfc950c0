"""What the Reports page runs off the GUI thread: build, export, print (in tasks).

Plain functions over the reports service (``fieldops.services.reports_run``),
so the page's slots stay a few lines and a test can hold one back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from PySide6.QtGui import QImage

from fieldops.db.cancel import Cancelled
from fieldops.db.engine import Database
from fieldops.rules import Profile
from fieldops.services import reports_run
from fieldops.services.context import Actor
from ui.common.documents import PrintJob, send_to_printer
from ui.common.file_dialogs import refuse_database_folder
from ui.reports.preview import render_pages


@dataclass(frozen=True)
class Built:
    """A report built for the page, and its pages as images when it is for the preview."""

    produced: reports_run.Produced
    pages: list[QImage] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return len(self.produced.output.table.rows)


def build_report(
    db: Database,
    actor: Actor,
    name: str,
    start: date,
    end: date,
    profile: Profile,
    *,
    redacted: bool,
    at: datetime,
    cancelled: Callable[[], bool],
    progress: Callable[[int, int], None],
    preview: bool,
) -> Built:
    """Build the report; for the preview, also draw its pages (audited as produced)."""
    produced = reports_run.produce(
        db,
        actor,
        name,
        start,
        end,
        profile,
        redacted=redacted,
        printed_at=at,
        cancelled=cancelled,
        progress=progress,
        audited=preview,  # a file or a printout audits itself as exported
    )
    pages = render_pages(produced.output.pdf) if preview else []
    if cancelled():
        raise Cancelled("the report is no longer wanted")
    return Built(produced, pages)


def export_report(db: Database, actor: Actor, built: Built, path: str) -> Path:
    """Write the report as PDF or CSV (by the suffix), never into the database's folder."""
    return reports_run.export(
        db,
        actor,
        built.produced,
        path,
        check_path=lambda p: refuse_database_folder(p, db.folder),
    )


def print_report(db: Database, actor: Actor, built: Built, job: PrintJob) -> str:
    """Send the PDF to the print service, then audit it; returns what the service said."""
    said = send_to_printer(built.produced.output.pdf, job)
    reports_run.record_printed(db, actor, built.produced, job.printer)
    return said
