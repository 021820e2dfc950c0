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
        (USER, "Rex is still on hold until 4 December.")
    ]


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


# -- cancelling: a superseded query stops, and closing never waits ---------


def _slow_query(db, started: threading.Event, ended: threading.Event):
    """Minutes of work on SQLite unless interrupted (a sleeping function per row)."""
    from sqlalchemy import text

    from fieldops.db.cancel import cancellable

    def work():
        try:
            with db.read() as s, cancellable(s):

                def slow(x):
                    started.set()
                    time.sleep(0.005)
                    return x

                s.connection().connection.dbapi_connection.create_function("slow", 1, slow)
                return s.execute(
                    text(
                        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                        "WHERE x < 100000) SELECT count(slow(x)) FROM c"
                    )
                ).scalar()
        finally:
            ended.set()

    return work


def test_cancel_interrupts_a_running_query(qtbot, tasks, router, sqlite_db):
    started, ended = threading.Event(), threading.Event()
    delivered = []
    task_id = tasks.run(_slow_query(sqlite_db, started, ended), on_done=delivered.append)
    assert started.wait(30)
    tasks.cancel(task_id)
    qtbot.waitUntil(ended.is_set, timeout=30_000)  # uninterrupted: about ten minutes
    qtbot.wait(50)
    assert delivered == [] and router.reports == []  # dropped silently, not an error


def test_interrupt_from_a_worker_stops_a_running_query_and_its_ending_is_dropped(
    qtbot, tasks, router, sqlite_db
):
    """``interrupt`` may be called off the GUI thread (a list's page stopping its count)."""
    started, ended = threading.Event(), threading.Event()
    delivered = []
    task_id = tasks.run(_slow_query(sqlite_db, started, ended), on_done=delivered.append)
    assert started.wait(30)
    stopper = threading.Thread(target=tasks.interrupt, args=(task_id,))
    stopper.start()
    stopper.join(5)
    qtbot.waitUntil(ended.is_set, timeout=30_000)  # uninterrupted: about ten minutes
    qtbot.waitUntil(lambda: tasks.pending_count() == 0, timeout=5000)
    assert delivered == [] and router.reports == []  # dropped silently, not an error


def test_a_destroyed_owner_cancels_its_query(qtbot, tasks, router, sqlite_db):
    started, ended = threading.Event(), threading.Event()
    owner = QObject()
    tasks.run(_slow_query(sqlite_db, started, ended), owner=owner)
    assert started.wait(30)
    owner.deleteLater()
    qtbot.waitUntil(ended.is_set, timeout=30_000)
    assert tasks.pending_count() == 0 and router.reports == []


def test_shutdown_never_waits_for_a_query(qtbot, router, sqlite_db):
    """Even one whose statement cannot be interrupted at once (stuck in a slow call)."""
    from sqlalchemy import text

    from fieldops.db.cancel import cancellable

    runner = TaskRunner(router)
    inside, release = threading.Event(), threading.Event()
    safety = threading.Timer(60, release.set)  # so a waiting shutdown cannot hang the suite
    safety.start()

    def stuck(x):
        inside.set()
        release.wait()
        return x

    def query():
        with sqlite_db.read() as s, cancellable(s):
            s.connection().connection.dbapi_connection.create_function("stuck", 1, stuck)
            return s.execute(text("SELECT stuck(1)")).scalar()

    try:
        runner.run(query)
        assert inside.wait(10)
        runner.shutdown()
        assert not release.is_set(), "shutdown waited for the running query"
    finally:
        release.set()
        safety.cancel()


def test_shutdown_lets_a_running_save_finish(qtbot, router, sqlite_db):
    """A record saved just before the window closed is not lost."""
    from sqlalchemy import text

    runner = TaskRunner(router)
    saving = threading.Event()

    def save():
        with sqlite_db.write() as s:
            saving.set()
            time.sleep(0.3)
            s.execute(
                text(
                    "INSERT INTO clinic (name, address, phone, licensed, created_at, updated_at,"
                    " version) VALUES ('Eastside', '', '', 1, '2026-11-30', '2026-11-30', 1)"
                )
            )

    runner.run(save)
    assert saving.wait(10)
    runner.shutdown()
    with sqlite_db.read() as s:
        assert s.execute(text("SELECT count(*) FROM clinic")).scalar() == 1


def test_shutdown_gives_up_on_work_that_does_not_end(qtbot, router):
    runner = TaskRunner(router)
    runner.SHUTDOWN_WAIT_S = 0.2
    release = threading.Event()
    started = threading.Event()
    runner.run(lambda: started.set() or release.wait(60))
    try:
        assert started.wait(10)
        runner.shutdown()
        assert not release.is_set()
    finally:
        release.set()


def test_shutdown_interrupts_a_running_query(qtbot, router, sqlite_db):
    runner = TaskRunner(router)
    started, ended = threading.Event(), threading.Event()
    runner.run(_slow_query(sqlite_db, started, ended))
    assert started.wait(30)
    runner.shutdown()
    assert ended.wait(30), "the query kept a core busy after the window closed"
    assert router.reports == []


def test_workers_never_keep_the_process_alive(qtbot, tasks):
    seen = []
    tasks.run(lambda: seen.append(threading.current_thread().daemon))
    wait_done(qtbot, tasks)
    assert seen == [True]
