"""The table models: a lazy one over SQL pages, and a plain one; each passes Qt's model tester."""

from __future__ import annotations

import threading
from functools import partial

import pytest

from fieldops.services.listing import Page
from fieldops.services.people import PersonInput, count_people, create_person, people_page
from ui.common.person_picker import PERSON_COLUMNS
from ui.common.table_models import LOADING, ROW_ROLE, Column, ListTableModel, PagedTableModel
from ui.errors import ErrorRouter
from ui.tasks import TaskRunner

COLUMNS = (Column("Number", str), Column("Square", lambda n: str(n * n)))


class FakeList:
    """count/page functions over 0..n-1 that record what was asked."""

    def __init__(self, n: int) -> None:
        self.items = list(range(n))
        self.pages: list[tuple[str, int]] = []
        self.counts: list[str] = []
        self.gate: threading.Event | None = None

    def matching(self, text: str) -> list[int]:
        return [i for i in self.items if text in str(i)] if text else self.items

    def count(self, text: str) -> int:
        if self.gate is not None:
            self.gate.wait(5)
        self.counts.append(text)
        return len(self.matching(text))

    def page(self, text: str, offset: int, limit: int) -> Page:
        self.pages.append((text, offset))
        return Page(offset, tuple(self.matching(text)[offset : offset + limit]))


@pytest.fixture
def tasks(qapp):
    runner = TaskRunner(ErrorRouter(interactive=False))
    yield runner
    runner.shutdown()


@pytest.fixture
def wait(qtbot, tasks):
    return lambda: qtbot.waitUntil(lambda: tasks.pending_count() == 0, timeout=5000)


def paged(tasks, source: FakeList, page_size: int = 50, **kw) -> PagedTableModel:
    return PagedTableModel(tasks, COLUMNS, source.count, source.page, page_size=page_size, **kw)


def test_counts_and_fetches_only_the_first_page(qtbot, tasks, wait):
    source = FakeList(1000)
    model = paged(tasks, source)
    with qtbot.waitSignal(model.counted) as blocker:
        model.search("")
    assert blocker.args == [1000]
    assert model.rowCount() == 1000
    assert model.index(3, 1).data() == "9"
    assert source.pages == [("", 0)]


def test_rows_not_yet_fetched_show_loading_then_arrive(qtbot, tasks, wait):
    source = FakeList(1000)
    model = paged(tasks, source)
    model.search("")
    wait()
    assert model.index(510, 0).data() == LOADING
    assert model.index(510, 0).data(ROW_ROLE) is None
    with qtbot.waitSignal(model.dataChanged):
        pass
    assert model.index(510, 0).data() == "510"
    assert model.row_object(510) == 510
    assert ("", 500) in source.pages


def test_a_page_is_fetched_once_however_often_it_is_painted(qtbot, tasks, wait):
    source = FakeList(1000)
    model = paged(tasks, source)
    model.search("")
    wait()
    for row in range(200, 250):
        model.index(row, 0).data()
        model.index(row, 1).data()
    wait()
    assert source.pages.count(("", 200)) == 1


def test_old_pages_are_forgotten_beyond_the_cache(qtbot, tasks, wait):
    source = FakeList(1000)
    model = paged(tasks, source, page_size=10, cache_pages=3)
    model.search("")
    wait()
    for row in (100, 200, 300, 400):
        model.index(row, 0).data()
        wait()
    assert model.index(0, 0).data() == LOADING  # page 0 fell out of the cache
    wait()
    assert model.index(0, 0).data() == "0"


def test_a_later_search_wins_over_an_earlier_slow_one(qtbot, tasks, wait):
    source = FakeList(1000)
    model = paged(tasks, source)
    source.gate = threading.Event()
    model.search("1")
    model.search("99")
    source.gate.set()
    wait()
    assert model.search_text() == "99"
    assert model.rowCount() == len(source.matching("99"))
    assert model.index(0, 0).data() == "99"


def test_the_old_rows_stay_while_a_new_search_runs(qtbot, tasks, wait):
    source = FakeList(100)
    model = paged(tasks, source)
    model.search("")
    wait()
    source.gate = threading.Event()
    model.search("7")
    assert model.is_searching()
    assert model.rowCount() == 100
    source.gate.set()
    wait()
    assert not model.is_searching()
    assert model.rowCount() == len(source.matching("7"))


def test_the_first_rows_show_before_a_slow_count_arrives(qtbot, tasks):
    source = FakeList(1000)
    model = paged(tasks, source)
    source.gate = threading.Event()  # the count of a million rows, still running
    model.search("")
    qtbot.waitUntil(lambda: not model.is_searching(), timeout=5000)
    assert model.is_counting() and not model.has_answer()
    assert model.rowCount() == 50  # the first page, shown
    assert model.index(3, 1).data() == "9"
    with qtbot.waitSignal(model.rowsInserted), qtbot.waitSignal(model.counted) as blocker:
        source.gate.set()
    assert blocker.args == [1000]
    assert model.rowCount() == 1000 and model.has_answer()
    assert model.index(3, 1).data() == "9"  # the rows shown stayed


def test_a_short_first_page_is_its_own_count_without_waiting_for_the_count(qtbot, tasks):
    """Fewer matches than a page: the first page is all of them (issue 14's fixed cost: the
    count's own unit of work is not waited for)."""
    source = FakeList(1000)
    model = paged(tasks, source)
    source.gate = threading.Event()  # the count's own query, still running
    with qtbot.waitSignal(model.counted, timeout=5000) as blocker:
        model.search("99")  # 99, 199, ..., 990-999: 19 matches, fewer than a page of 50
    assert blocker.args == [19]
    assert not model.is_counting() and model.has_answer() and not model.is_loading()
    assert model.rowCount() == 19 and model.index(18, 0).data() == "999"
    source.gate.set()
    qtbot.waitUntil(lambda: tasks.pending_count() == 0, timeout=5000)
    assert model.rowCount() == 19


def test_a_full_first_page_still_waits_for_its_count(qtbot, tasks, wait):
    source = FakeList(50)  # exactly a page: more may follow, so the count decides
    model = paged(tasks, source)
    with qtbot.waitSignal(model.counted) as blocker:
        model.search("")
    assert blocker.args == [50] and source.counts == [""]


def test_a_refresh_keeps_the_row_count_until_the_new_count(qtbot, tasks, wait):
    source = FakeList(1000)
    model = paged(tasks, source)
    model.search("")
    wait()
    source.gate = threading.Event()
    model.refresh()
    qtbot.waitUntil(lambda: not model.is_searching(), timeout=5000)
    assert model.is_refresh() and model.rowCount() == 1000  # the view keeps its place
    source.items = source.items[:900]
    source.gate.set()
    wait()
    assert model.rowCount() == 900


def test_a_list_that_shrank_since_counting_shows_blank_rows(qtbot, tasks, wait):
    source = FakeList(120)
    model = paged(tasks, source)
    model.search("")
    wait()
    source.items = source.items[:60]  # someone archived rows meanwhile
    model.index(110, 0).data()
    wait()
    assert model.index(110, 0).data() is None


def test_paged_model_passes_the_model_tester(qtbot, qtmodeltester, tasks, wait):
    source = FakeList(450)
    model = paged(tasks, source)
    model.search("")
    wait()
    qtmodeltester.check(model)
    wait()


def test_empty_paged_model_passes_the_model_tester(qtmodeltester, tasks, wait):
    model = paged(tasks, FakeList(0))
    model.search("")
    wait()
    assert model.rowCount() == 0
    qtmodeltester.check(model)


def test_people_model_over_the_database_passes_the_model_tester(
    qtbot, qtmodeltester, tasks, wait, sqlite_db, operator
):
    for name in ("Ana Ruiz", "Bea Quinn", "Carl Ruiz"):
        create_person(sqlite_db, operator, PersonInput(full_name=name))
    model = PagedTableModel(
        tasks,
        PERSON_COLUMNS,
        partial(count_people, sqlite_db),
        partial(people_page, sqlite_db),
        page_size=2,
    )
    model.search("ruiz")
    wait()
    assert [model.index(r, 0).data() for r in range(model.rowCount())] == ["Ana Ruiz", "Carl Ruiz"]
    qtmodeltester.check(model)
    wait()


def test_list_model_passes_the_model_tester(qtmodeltester):
    model = ListTableModel(COLUMNS, [1, 2, 3])
    assert model.index(2, 1).data() == "9"
    assert model.headerData(1, model_horizontal()) == "Square"
    qtmodeltester.check(model)
    model.set_rows([])
    qtmodeltester.check(model)


def model_horizontal():
    from PySide6.QtCore import Qt

    return Qt.Orientation.Horizontal
