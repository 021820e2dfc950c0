"""The quarantine's documents on screen: rendered in a task, then opened in the system's PDF
viewer from a private temporary copy (the viewer prints and saves them)."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QWidget

from fieldops.reports.quarantine import certification_form, quarantine_order
from fieldops.services.quarantine import QuarantineView
from ui.common import documents as docs
from ui.context import AppContext

RENDERERS = {
    "order": (quarantine_order, "quarantine-order"),
    "certificate": (certification_form, "certification-of-quarantine"),
}


def render(ctx: AppContext, view: QuarantineView, which: str) -> bytes:
    fn, _ = RENDERERS[which]
    return fn(view, jurisdiction=ctx.jurisdiction, tz=ctx.timezone, printed_at=ctx.now())


def show_document(ctx: AppContext, view: QuarantineView, which: str, parent: QWidget) -> None:
    name = f"{RENDERERS[which][1]}-{view.id}.pdf"

    def opened(content: bytes) -> None:
        ctx.tasks.run(
            docs.viewing_copy,
            content,
            name,
            ctx.db.folder,
            owner=parent,
            on_done=lambda path: QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))),
        )

    ctx.tasks.run(render, ctx, view, which, owner=parent, on_done=opened)
