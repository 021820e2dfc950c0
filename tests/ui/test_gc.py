"""Garbage collection happens on the GUI thread, never on a task's worker thread."""

from __future__ import annotations

import gc
import threading

from PySide6.QtCore import QObject

from ui.errors import ErrorRouter
from ui.gc import collect_on_gui_thread
from ui.tasks import TaskRunner


def test_the_task_runner_switches_automatic_collection_to_the_gui_thread(qtbot, qapp):
    runner = TaskRunner(ErrorRouter(interactive=False))
    try:
        assert not gc.isenabled()
        collected_on: list[str] = []

        class Cycle(QObject):
            def __del__(self) -> None:
                collected_on.append(threading.current_thread().name)

        def make_garbage() -> None:
            for _ in range(2000):
                a = Cycle()
                a.me = a  # a reference cycle only the collector frees

        def churn() -> int:
            # Allocations far past the thresholds: with automatic collection on,
            # this worker thread would run the collector itself and free the cycles.
            junk = [[i] for i in range(200_000)]
            return len(junk) + len(collected_on)

        make_garbage()
        done = []
        runner.run(churn, on_done=done.append)
        qtbot.waitUntil(lambda: bool(done), timeout=10_000)
        qtbot.waitUntil(lambda: len(collected_on) >= 2000, timeout=10_000)
        assert set(collected_on) == {threading.main_thread().name}
    finally:
        runner.shutdown()


def test_installing_twice_keeps_one_collector(qapp):
    assert collect_on_gui_thread() is collect_on_gui_thread()
