"""A list's first page and its count: one hand-over to a worker, the page never held back.

The two used to run as two tasks on two workers at once, contending for the interpreter
with each other and with the GUI thread that shows the page (issue 14's fixed cost).
"""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QObject

from fieldops.services.listing import Page
from ui.common.table_models import Column, PagedTableModel
from ui.errors import ErrorRouter
from ui.tasks import Call, TaskRunner


@pytest.fixture
def tasks(qapp):
    runner = TaskRunner(ErrorRouter(interactive=False))
    yield runner
    runner.shutdown()


def wait_done(qtbot, tasks) -> None:
    qtbot.waitUntil(lambda: tasks.pending_count() == 0, timeout=5000)


class Recorded:
    """count/page over 0..n-1 that record on which thread, and in what order, they ran."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.events: list[tuple[str, str]] = []
        self.count_gate: threading.Event | None = None

    def page(self, _text: str, offset: int, limit: int) -> Page[int]:
        self.events.append(("page", threading.current_thread().name))
        return Page(offset, tuple(range(offset, min(offset + limit, self.n))))

    def count(self, _text: str) -> int:
        self.events.append(("count", threading.current_thread().name))
        if self.count_gate is not None:
            self.count_gate.wait(5)
        return self.n


def model_over(tasks, source: Recorded) -> PagedTableModel:
    return PagedTableModel(tasks, (Column("n", str),), source.count, source.page, page_size=10)


def test_a_full_first_page_and_its_count_run_one_after_the_other_on_one_worker(qtbot, tasks):
    source = Recorded(1000)
    model = model_over(tasks, source)
    with qtbot.waitSignal(model.counted, timeout=5000) as counted:
        model.search("")
    assert counted.args == [1000] and model.rowCount() == 1000
    (first, page_thread), (second, count_thread) = source.events
    assert (first, second) == ("page", "count")
    assert page_thread == count_thread


def test_the_page_is_shown_while_its_count_still_runs_on_the_same_worker(qtbot, tasks):
    source = Recorded(1000)
    source.count_gate = threading.Event()  # a million rows still being counted
    model = model_over(tasks, source)
    model.search("")
    qtbot.waitUntil(lambda: not model.is_searching(), timeout=5000)
    assert model.is_counting() and model.rowCount() == 10
    assert model.index(9, 0).data() == "9"
    source.count_gate.set()
    wait_done(qtbot, tasks)
    assert model.rowCount() == 1000 and model.has_answer()


def test_a_short_first_page_never_runs_its_count(qtbot, tasks):
    source = Recorded(7)
    model = model_over(tasks, source)
    with qtbot.waitSignal(model.counted, timeout=5000) as counted:
        model.search("")
    wait_done(qtbot, tasks)
    assert counted.args == [7]
    assert [kind for kind, _ in source.events] == ["page"]


def test_a_pair_delivers_each_call_as_it_ends(qtbot, tasks):
    release = threading.Event()
    got: list[object] = []
    tasks.run_pair(Call(lambda: "first", (), got.append), Call(release.wait, (5,), got.append))
    qtbot.waitUntil(lambda: got == ["first"], timeout=5000)
    assert tasks.pending_count() == 1  # the second still runs
    release.set()
    wait_done(qtbot, tasks)
    assert got == ["first", True]


def test_the_second_of_a_pair_cancelled_before_it_runs_never_runs(qtbot, tasks):
    release = threading.Event()
    ran: list[str] = []
    _first, second = tasks.run_pair(Call(release.wait, (5,)), Call(lambda: ran.append("second")))
    tasks.cancel(second)
    release.set()
    wait_done(qtbot, tasks)
    qtbot.wait(50)
    assert ran == []


def test_a_destroyed_owner_drops_both_of_its_pair(qtbot, tasks):
    release = threading.Event()
    owner = QObject()
    got: list[object] = []
    tasks.run_pair(
        Call(release.wait, (5,), got.append), Call(lambda: "count", (), got.append), owner=owner
    )
    owner.deleteLater()
    qtbot.waitUntil(lambda: tasks.pending_count() == 0, timeout=5000)
    release.set()
    qtbot.wait(50)
    assert got == []
