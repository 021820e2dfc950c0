"""What an area's page may offer the main window, each part optional.

A page is any ``QWidget``; the main window enables a Records menu entry only
for a page that offers it, checked with ``isinstance`` against these
protocols (a page implements one by having its members; it need not inherit):

* ``Searchable``: ``focus_search()``, Records > Find (Ctrl+F), and where
  Ctrl+digit puts the focus.
* ``Creates``: ``new_record()``, Records > New (Ctrl+N); with
  ``NamesNewRecord`` (``new_record_label``) the entry says what it creates.
* ``Refreshable``: ``refresh()``, Records > Refresh (F5).
* ``HasPageActions``: ``page_actions() -> list[QAction]``, extra entries in the
  Records menu, with their shortcuts live only while the page is showing.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtGui import QAction


@runtime_checkable
class Searchable(Protocol):
    def focus_search(self) -> None: ...


@runtime_checkable
class Creates(Protocol):
    def new_record(self) -> None: ...


@runtime_checkable
class NamesNewRecord(Protocol):
    new_record_label: str


@runtime_checkable
class Refreshable(Protocol):
    def refresh(self) -> None: ...


@runtime_checkable
class HasPageActions(Protocol):
    def page_actions(self) -> list[QAction]: ...
