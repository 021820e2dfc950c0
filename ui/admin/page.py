"""The "Administration" area: fee schedules now; staff, clinics and backups later."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from fieldops.permissions import Permission
from ui import modules as ui_modules
from ui.account import can
from ui.admin.backups import BackupsWidget
from ui.admin.fee_schedules import FeeSchedulesWidget
from ui.admin.staff import IdleLockWidget, StaffWidget
from ui.admin.workstations import WorkstationsWidget
from ui.common.style import paint_page_white
from ui.context import AppContext


class AdministrationWidget(QWidget):
    """Council fee schedules; a supervisor enters new ones, everyone reads them.

    Page protocol: ``refresh`` (F5).
    """

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("AdministrationWidget")
        paint_page_white(self)
        heading = QLabel("Administration")
        heading.setObjectName("PageHeading")
        self.fee_schedules = FeeSchedulesWidget(ctx)
        later = QLabel("The jurisdiction profile will follow in a later version.")
        later.setObjectName("FieldHint")
        outer = QVBoxLayout(self)
        outer.addWidget(heading)
        # The sections together are taller than a laptop's screen: they scroll under the
        # heading instead of stretching the main window past the screen's bottom.
        scroll = QScrollArea(self)
        scroll.setObjectName("AdministrationScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        sections = QWidget()
        sections.setObjectName("AdministrationSections")
        paint_page_white(sections)
        scroll.setWidget(sections)
        outer.addWidget(scroll, 1)
        layout = QVBoxLayout(sections)
        layout.setContentsMargins(0, 0, 0, 0)
        # Accounts and settings only for the roles the permission table gives them to.
        self.staff = StaffWidget(ctx) if can(ctx, Permission.ACCOUNTS) else None
        self.idle_lock = IdleLockWidget(ctx) if can(ctx, Permission.SETTINGS) else None
        if self.staff is not None:
            layout.addWidget(self.staff, 1)
        if self.idle_lock is not None:
            layout.addWidget(self.idle_lock)
        self.backups = BackupsWidget(ctx) if can(ctx, Permission.BACKUPS) else None
        if self.backups is not None:
            layout.addWidget(self.backups)
        if can(ctx, Permission.BACKUPS):  # migrate-to is the administrator's
            layout.addWidget(WorkstationsWidget(ctx))
        layout.addWidget(self.fee_schedules, 1)
        for section in ui_modules.admin_sections():  # a module's own registers (clinics, ...)
            layout.addWidget(section(ctx))
        layout.addWidget(later)

    def refresh(self) -> None:
        self.fee_schedules.refresh()
        if self.staff is not None:
            self.staff.refresh()
