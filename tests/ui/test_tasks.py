"""The task runner: work off the GUI thread, results and errors back on it."""

from __future__ import annotations

import threading
import time

import pytest
from PySide6.QtCore import QObject, QThread, QTimer

from fieldops.errors import UserError
from ui.errors import BUG, ENVIRONMENT, USER, ErrorRouter
from ui.tasks import TaskRunner


@pytest.fixture
def router() -> ErrorRouter:
    return ErrorRouter(interactive=False)


@pytest.fixture
def tasks(qapp, router):
    runner = TaskRunner(router)
    yield runner
    runner.shutdown()


def wait_done(qtbot, tasks):
    qtbot.waitUntil(lambda: tasks.pending_count() == 0, timeout=5000)


def test_runs_off_the_gui_thread_and_delivers_on_it(qtbot, tasks):
    seen = {}

    def work(a, b=0):
        seen["worker"] = QThread.currentThread()
        return a + b

    def done(result):
        seen["result"] = result
        seen["delivered"] = QThread.currentThread()

    tasks.run(work, 2, b=3, on_done=done)
    wait_done(qtbot, tasks)
    assert seen["result"] == 5
    assert seen["delivered"] is qtbot_app_thread()
    assert seen["worker"] is not qtbot_app_thread()


def qtbot_app_thread():
    from PySide6.QtWidgets import QApplication

    return QApplication.instance().thread()


def test_the_gui_keeps_running_while_a_task_works(qtbot, tasks):
    release = threading.Event()
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(10)
    tasks.run(release.wait, 5)
    qtbot.wait(200)
    assert len(ticks) >= 5, "the event loop stalled while the task ran"
    assert tasks.pending_count() == 1
    release.set()
    wait_done(qtbot, tasks)
    timer.stop()


def test_a_user_error_is_shown_as_written(qtbot, tasks, router):
    def refuse():
        raise UserError("Rex is still on hold until 4 December.")

    tasks.run(refuse)
    wait_done(qtbot, tasks)
    assert [(r.kind, r.message) for r in router.reports] == [
        (USER, "Rex is still on hold until 4 December.")]


def test_any_other_exception_is_reported_as_a_bug_with_its_traceback(qtbot, tasks, router):
    def broken():
        return {}["missing"]

    tasks.run(broken)
    wait_done(qtbot, tasks)
    (report,) = router.reports
    assert report.kind == BUG
    assert "KeyError" in report.message
    assert "def broken" in report.details or "broken" in report.details


def test_an_unreachable_database_is_an_environment_problem(qtbot, tasks, router):
    def disk_full():
        raise OSError(28, "No space left on device")

    tasks.run(disk_full)
    wait_done(qtbot, tasks)
    (report,) = router.reports
    assert report.kind == ENVIRONMENT
    assert "No space left on device" in report.message


def test_a_caller_may_handle_its_own_errors(qtbot, tasks, router):
    handled = []

    def refuse():
        raise UserError("no")

    tasks.run(refuse, on_error=lambda exc: handled.append(str(exc)) or True)
    wait_done(qtbot, tasks)
    assert handled == ["no"]
    assert router.reports == []


def test_a_result_for_a_deleted_owner_is_dropped(qtbot, tasks, router):
    release = threading.Event()
    owner = QObject()
    delivered = []
    tasks.run(lambda: release.wait(5) and 1 / 0, owner=owner, on_done=delivered.append)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not _alive(owner))
    release.set()
    wait_done(qtbot, tasks)
    assert delivered == []
    assert router.reports == []  # not even the error: nobody is there to read it


def _alive(obj) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)


def test_a_cancelled_task_delivers_nothing(qtbot, tasks):
    release = threading.Event()
    delivered = []
    task_id = tasks.run(release.wait, 5, on_done=delivered.append)
    tasks.cancel(task_id)
    assert tasks.pending_count() == 0
    release.set()
    qtbot.wait(100)
    assert delivered == []


def test_busy_changes_when_work_starts_and_ends(qtbot, tasks):
    states = []
    tasks.busy_changed.connect(states.append)
    tasks.run(lambda: 1)
    tasks.run(lambda: 2)
    wait_done(qtbot, tasks)
    assert states == [True, False]
