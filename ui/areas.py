"""The areas of the app, in navigation order: the one place a page plugs in.

An area without a ``page`` shows a placeholder saying what will come. To add
a page, name its widget class as ``"module:Class"`` (or give any ``(ctx) -> QWidget``), e.g.::

    Area("impounds", "Impounds", page="ui.impounds.page:ImpoundsWidget", coming="..."),

A page's module is imported, and the page built, the first time it is shown: the
start-up imports only the first screen's (a named page keeps ReportLab, say, out of
the start until Reports is opened). It may offer, and the main
window then wires up (all optional; the protocols are in ``ui.common.pages``):

* ``focus_search()``  Records > Find (Ctrl+F): ``Searchable``
* ``new_record()``    Records > New (Ctrl+N): ``Creates`` (with
  ``new_record_label``, ``NamesNewRecord``, the entry says what it creates)
* ``refresh()``       Records > Refresh (F5): ``Refreshable``
* ``page_actions() -> list[QAction]``  extra entries in the Records menu,
  with their shortcuts live only while the page is showing: ``HasPageActions``
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

if TYPE_CHECKING:  # the window's frame paints before the database layer loads
    from ui.context import AppContext

PageFactory = Callable[["AppContext"], QWidget]


@dataclass(frozen=True)
class Area:
    key: str
    title: str
    page: PageFactory | str | None = None  # "module:Class", imported when first shown
    coming: str = ""  # what the placeholder promises until the page exists


AREAS: tuple[Area, ...] = (
    Area(
        "today",
        "Today",
        page="ui.today.page:TodayWidget",
        coming=(
            "What is due today, overdue first: holds that end, quarantine examinations and "
            "certificates due back, vicious-animal notices and deadlines."
        ),
    ),
    Area(
        "impounds",
        "Impounds",
        page="ui.impounds.page:ImpoundsWidget",
        coming=(
            "Animals taken in: intake, the hold period and the day it ends, boarding fees, "
            "release to the owner, adoption or other disposition."
        ),
    ),
    Area(
        "quarantines",
        "Quarantines",
        page="ui.quarantine.page:QuarantinesWidget",
        coming=(
            "Bite quarantines: the observation period, the examinations required, home or "
            "clinic quarantine, and the certificate due back."
        ),
    ),
    Area(
        "vicious",
        "Vicious animals",
        page="ui.vicious.page:ViciousWidget",
        coming=(
            "Vicious-animal declarations: notices served, conditions imposed, hearings "
            "and deadlines."
        ),
    ),
    Area("calls", "Calls", page="ui.calls.page:CallsWidget"),
    Area(
        "licences",
        "Licences and permits",
        page="ui.licences.page:LicencesAndPermitsWidget",
        coming="Dog licences and their renewals; chicken and animal fancier permits.",
    ),
    Area("people", "People and animals", page="ui.people.page:PeopleAndAnimalsWidget"),
    Area(
        "reports",
        "Reports",
        page="ui.reports.page:ReportsWidget",
        coming=(
            "Printable reports as PDF: daily activity, impound and quarantine registers, "
            "fees collected."
        ),
    ),
    Area(
        "admin",
        "Administration",
        page="ui.admin.page:AdministrationWidget",
        coming=(
            "Staff and their roles, veterinary clinics, the jurisdiction profile (periods "
            "and fees) and backups."
        ),
    ),
)


class PlaceholderWidget(QWidget):
    """Stands in for an area whose page is not written yet, and says what it will do."""

    def __init__(self, area: Area, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("PlaceholderWidget")
        heading = QLabel(area.title)
        heading.setObjectName("PageHeading")
        text = QLabel(f"Coming in a later version. {area.coming}")
        text.setWordWrap(True)
        text.setMaximumWidth(640)
        text.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 24, 24, 24)
        layout.addWidget(heading)
        layout.addWidget(text)
        layout.addStretch(1)
        self.text = text


def page_factory(page: PageFactory | str) -> PageFactory:
    """The callable that builds a page; a ``"module:Class"`` is imported now."""
    if not isinstance(page, str):
        return page
    module, _, name = page.partition(":")
    factory: PageFactory = getattr(importlib.import_module(module), name)
    return factory


def build_page(area: Area, ctx: AppContext) -> QWidget:
    return page_factory(area.page)(ctx) if area.page is not None else PlaceholderWidget(area)
