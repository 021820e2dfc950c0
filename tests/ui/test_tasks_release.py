"""What a task held is let go of on the GUI thread, never on the worker that ran it.

A worker dropping the last reference to a Python-owned QObject runs its C++ destructor
on the worker thread, while the GUI thread may be painting it or delivering to it: the
rare segmentation fault at a test's teardown, with a worker in ``_Workers._loop``.
Workers kept each job until they took their next one (or their stop), so whatever the
job alone still held was destroyed there.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Qt

from fieldops.services.listing import Page
from ui.common.table_models import Column, PagedTableModel
from ui.errors import ErrorRouter
from ui.tasks import TaskRunner


def destroyed_on(obj: QObject) -> list[str]:
    """The names of the threads ``obj``'s C++ destructor ran on (one, once it has)."""
    names: list[str] = []
    obj.destroyed.connect(
        lambda *_: names.append(threading.current_thread().name),
        Qt.ConnectionType.DirectConnection,  # on the destroying thread, whichever it is
    )
    return names


class Holder(QObject):
    """A Python-owned QObject whose bound method is a task's function."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.release = threading.Event()

    def value(self) -> int:
        return 7

    def wait_for_release(self) -> int:
        self.started.set()
        self.release.wait(10)
        return 8


GUI = threading.main_thread().name


def test_an_object_only_a_finished_task_still_holds_is_destroyed_on_the_gui_thread(qtbot):
    runner = TaskRunner(ErrorRouter(interactive=False))
    holder = Holder()
    seen = destroyed_on(holder)
    done: list[int] = []
    runner.run(holder.value, on_done=done.append)
    qtbot.waitUntil(lambda: done == [7], timeout=5000)
    del holder  # the caller lets go; the task ran and delivered
    runner.shutdown()  # the worker takes its stop and leaves the job behind
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen == [GUI]


def test_a_worker_taking_its_next_job_leaves_the_last_one_to_the_gui_thread(qtbot):
    runner = TaskRunner(ErrorRouter(interactive=False), max_threads=1)
    holder = Holder()
    seen = destroyed_on(holder)
    done: list[int] = []
    runner.run(holder.value, on_done=done.append)
    qtbot.waitUntil(lambda: done == [7], timeout=5000)
    del holder
    try:
        runner.run(int, on_done=done.append)  # one worker: the same thread moves on
        qtbot.waitUntil(lambda: done == [7, 0] and bool(seen), timeout=5000)
        assert seen == [GUI]
    finally:
        runner.shutdown()


def test_shutting_down_with_a_job_in_flight_delivers_nothing_and_destroys_on_the_gui_thread(
    qtbot,
):
    router = ErrorRouter(interactive=False)
    runner = TaskRunner(router)
    runner.SHUTDOWN_WAIT_S = 0.05  # the job outlives the shutdown, as a stuck save would
    holder = Holder()
    seen = destroyed_on(holder)
    started, release = holder.started, holder.release
    delivered: list[object] = []
    runner.run(holder.wait_for_release, on_done=delivered.append, on_error=delivered.append)
    assert started.wait(10)
    runner.shutdown()
    del holder
    release.set()  # the job ends after the shutdown; its worker then takes its stop
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    qtbot.wait(50)
    assert seen == [GUI]
    assert delivered == [] and router.reports == []


def test_a_list_model_nobody_holds_any_more_is_destroyed_on_the_gui_thread(qtbot):
    """A parentless list model (as tests and pickers make): its search's two calls are its
    bound methods, on a worker until the worker moves on."""
    runner = TaskRunner(ErrorRouter(interactive=False))
    model = PagedTableModel(
        runner,
        (Column("n", str),),
        lambda _text: 1000,
        lambda _text, offset, limit: Page(offset, tuple(range(offset, offset + limit))),
        page_size=10,
    )
    seen = destroyed_on(model)
    with qtbot.waitSignal(model.counted, timeout=5000):
        model.search("")
    del model
    runner.shutdown()
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen == [GUI]
