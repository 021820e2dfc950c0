"""Table models: a lazy one over SQL pages for big lists, a plain one for short lists.

``PagedTableModel`` follows Anki's browser table (STYLE.md): the database
filters, sorts and counts; the model holds only the pages a view has asked
for. Counting and every page fetch run through ``ui.tasks`` because neither is
cheap on a million rows (a deep OFFSET page took over a second in
measurement), so the GUI thread never waits: rows not yet fetched show
"Loading…" until their page arrives. The count runs after the first page on the
same worker and never holds back the first rows (issue 14: they show first,
then the count). A first page shorter than a page is the whole answer: it is
its own count.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from fieldops.db.cancel import Cancelled
from fieldops.services.listing import Page
from ui.tasks import Call, TaskRunner

AnyIndex = QModelIndex | QPersistentModelIndex
LOADING = "Loading…"
ROW_ROLE = Qt.ItemDataRole.UserRole  # the row's frozen data object
_ANSWERED_ROLES = frozenset(
    {int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole), int(ROW_ROLE)}
)
#: The roles a list model colours its rows with, looked up once (see ``data``).
STYLE_ROLES = frozenset(
    {
        int(Qt.ItemDataRole.ForegroundRole),
        int(Qt.ItemDataRole.BackgroundRole),
        int(Qt.ItemDataRole.FontRole),
    }
)


@dataclass(frozen=True)
class Column:
    """One column: its title and how a row object shows in it."""

    title: str
    text: Callable[[Any], str]
    width: int = 0  # preferred width in pixels; 0 lets the view decide
    stretch: bool = False  # takes the view's spare width (else the last column does)
    # The widest text the column must show whole (a sample): the view widens the column
    # to it in the font on screen, so a date and time is never cut to "Wed 30 Sep 2026 1…".
    fits: str = ""
    fit_margin: int = 20  # the cell's margins and air beside ``fits``
    fits_bold: bool = False  # ``fits`` measured in bold (the column's rows can be bold)


#: The widest record number a list shows whole: six digits, a pound's records of decades
#: (100,000 impoundments are ten years of a mid-sized city; past 999,999 a number is elided).
RECORD_NUMBER = "000000"


def number_column(text: Callable[[Any], str] = lambda r: str(r.id)) -> Column:
    """The "#" column of a list: each record's number, never cut to "99…"."""
    return Column("#", text, 40, fits=RECORD_NUMBER, fit_margin=12)


class _ColumnsMixin:
    _columns: Sequence[Column]

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(self._columns)
        ):
            return self._columns[section].title
        return None

    def columns(self) -> Sequence[Column]:
        return self._columns


class ListTableModel(_ColumnsMixin, QAbstractTableModel):
    """A short list held in memory (a person's animals, a record's history)."""

    def __init__(
        self, columns: Sequence[Column], rows: Sequence[Any] = (), parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._columns = tuple(columns)
        self._rows: tuple[Any, ...] = tuple(rows)

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = tuple(rows)
        self.endResetModel()

    def row_object(self, row: int) -> Any:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        obj = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._columns[index.column()].text(obj)
        if role == ROW_ROLE:
            return obj
        return None


class _Answer:
    """One search's two calls, as they see each other on their worker (one after the other)."""

    def __init__(self) -> None:
        self.short = False  # the first page was shorter than a page


class PagedTableModel(_ColumnsMixin, QAbstractTableModel):
    """Rows of a searched list, counted and fetched page by page off the GUI thread.

    ``count(text) -> int`` and ``page(text, offset, limit) -> Page`` are
    service calls with the database already bound. ``search(text)`` starts a
    new answer; the rows on screen stay until it arrives, so typing never
    blanks the list.
    """

    searching_changed = Signal(bool)  # True: a new answer runs; False: its first rows are shown
    counted = Signal(int)  # the answer's count arrived (after its first rows): how many match

    MAX_IN_FLIGHT = 2  # page fetches at once; later wishes wait, newest first

    def __init__(
        self,
        tasks: TaskRunner,
        columns: Sequence[Column],
        count: Callable[[str], int],
        page: Callable[[str, int, int], Page[object]],
        *,
        page_size: int = 200,
        cache_pages: int = 64,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._columns = tuple(columns)
        self._count_fn = count
        self._page_fn = page
        self._page_size = page_size
        self._cache_pages = cache_pages
        self._text = ""
        self._count = 0  # the rows the view has: the count, or the first page until it arrives
        self._counted = False
        self._generation = 0
        self._pages: OrderedDict[int, Sequence[Any]] = OrderedDict()
        self._wanted: list[int] = []
        self._in_flight: dict[int, int] = {}
        self._search_task = 0  # the answer's first page
        self._count_task = 0  # its count, run after it on the same worker
        self._shown = False  # the answer's first page is in the model
        self._early_count: int | None = None  # a count that arrived before the first page
        self._repeat = False

    # -- the search ------------------------------------------------------

    def search(self, text: str) -> None:
        """Fetch the first page for ``text`` and count it: two calls, one after the other on
        one worker, each delivered as it ends.

        The old rows stay until the first page arrives; the count may take
        longer (a million rows) and never holds the rows back: until it
        arrives the model has the first page's rows, and ``counted`` says when
        it has them all. A cheap count comes with its page in the same hand-over.
        """
        self._generation += 1
        self._repeat = text == self._text and self._counted
        self._text = text
        self._forget_fetches()
        self._tasks.cancel(self._search_task)
        self._tasks.cancel(self._count_task)
        self._shown = False
        self._early_count = None
        generation = self._generation
        answer = _Answer()
        self._search_task, self._count_task = self._tasks.run_pair(
            Call(
                self._first_page,
                (answer, text),
                partial(self._on_first_page, generation),
                self._on_search_failed,
            ),
            Call(
                self._counting,
                (answer, text),
                partial(self._on_count, generation),
                self._on_count_failed,
            ),
            owner=self,
        )
        self.searching_changed.emit(True)

    # On a worker thread: the answer's two calls, in this order.
    def _first_page(self, answer: _Answer, text: str) -> Page[object]:
        first = self._page_fn(text, 0, self._page_size)
        # Every match, in one snapshot: the count's own unit of work is not needed.
        answer.short = len(first.rows) < self._page_size
        return first

    def _counting(self, answer: _Answer, text: str) -> int:
        if answer.short:
            raise Cancelled("the first page was every match")
        return self._count_fn(text)

    def refresh(self) -> None:
        self.search(self._text)

    def search_text(self) -> str:
        return self._text

    def is_refresh(self) -> bool:
        """True when the current answer re-ran the previous search (views keep their place)."""
        return self._repeat

    def is_searching(self) -> bool:
        """True until the current answer's first rows are shown."""
        return self._tasks.is_pending(self._search_task)

    def is_counting(self) -> bool:
        """True while the current answer's count has not arrived."""
        return self._tasks.is_pending(self._count_task)

    def has_answer(self) -> bool:
        """True once a search has been counted (0 rows then means "none match")."""
        return self._counted

    def is_loading(self) -> bool:
        return self.is_searching() or self.is_counting() or bool(self._in_flight)

    def row_object(self, row: int) -> Any:
        """The row's data object, or None while its page is still loading."""
        page_no, i = divmod(row, self._page_size)
        rows = self._pages.get(page_no)
        return rows[i] if rows is not None and i < len(rows) else None

    def _on_first_page(self, generation: int, first: Page[object]) -> None:
        if generation != self._generation:
            return
        if self._early_count is None and len(first.rows) < self._page_size:
            # A first page shorter than a page is every match, read in one snapshot: its
            # count is the answer's count, and the count's own task (a second unit of work
            # as long again for a short list) is not waited for.
            self._early_count = len(first.rows)
            self._tasks.cancel(self._count_task)
        self.beginResetModel()
        if self._early_count is not None:
            self._count = self._early_count
        elif not self._repeat:
            self._count = len(first.rows)
        # else a refresh keeps the old count until the new one arrives, so the view keeps
        # its place (rows past the first page are fetched again as it shows them).
        self._pages.clear()
        self._pages[0] = first.rows
        self._shown = True
        self.endResetModel()
        self.searching_changed.emit(False)
        if self._early_count is not None:
            self._counted = True
            self.counted.emit(self._count)

    def _on_count(self, generation: int, count: int) -> None:
        if generation != self._generation:
            return
        if not self._shown:
            self._early_count = count
            return
        if count > self._count:
            self.beginInsertRows(QModelIndex(), self._count, count - 1)
            self._count = count
            self.endInsertRows()
        elif count < self._count:
            self.beginRemoveRows(QModelIndex(), count, self._count - 1)
            self._count = count
            self.endRemoveRows()
        self._counted = True
        self.counted.emit(count)

    def _on_search_failed(self, _exc: BaseException) -> bool:
        self.searching_changed.emit(False)
        return False  # still reported by the router

    def _on_count_failed(self, _exc: BaseException) -> bool:
        return False  # reported by the router; the rows shown stay

    # -- pages -----------------------------------------------------------

    def _forget_fetches(self) -> None:
        for task_id in self._in_flight.values():
            self._tasks.cancel(task_id)
        self._in_flight.clear()
        self._wanted.clear()

    def _want(self, page_no: int) -> None:
        if page_no in self._in_flight:
            return
        if page_no in self._wanted:
            self._wanted.remove(page_no)
        self._wanted.append(page_no)
        # Pages scrolled past before they were fetched are not worth fetching.
        del self._wanted[:-8]
        self._pump()

    def _pump(self) -> None:
        while self._wanted and len(self._in_flight) < self.MAX_IN_FLIGHT:
            page_no = self._wanted.pop()
            self._in_flight[page_no] = self._tasks.run(
                self._page_fn,
                self._text,
                page_no * self._page_size,
                self._page_size,
                owner=self,
                on_done=partial(self._on_page_done, self._generation, page_no),
            )

    def _on_page_done(self, generation: int, page_no: int, page: Page[object]) -> None:
        if generation != self._generation:
            return
        self._in_flight.pop(page_no, None)
        self._pages[page_no] = page.rows
        while len(self._pages) > self._cache_pages:
            self._pages.popitem(last=False)
        first = page_no * self._page_size
        last = min(first + self._page_size, self._count) - 1
        if last >= first:
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(self._columns) - 1))
        self._pump()

    # -- the model interface ---------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._count

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Asked for every cell the view paints, for each role: the roles answered are
        # looked up once (a Qt enum's attribute costs about 0.2 us each time).
        if role not in _ANSWERED_ROLES or not index.isValid():
            return None
        page_no, i = divmod(index.row(), self._page_size)
        rows = self._pages.get(page_no)
        if rows is None:
            self._want(page_no)
            if role == ROW_ROLE:
                return None
            return LOADING if index.column() == 0 else ""
        self._pages.move_to_end(page_no)
        if i >= len(rows):  # the list shrank since it was counted
            return None
        if role == ROW_ROLE:
            return rows[i]
        return self._columns[index.column()].text(rows[i])
