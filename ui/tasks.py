"""Service calls off the GUI thread, with results delivered on it by signal.

Every query that can grow (list counts, pages, searches) and every save runs
here, never on the GUI thread (STYLE.md). A task is a plain function call on a
worker thread; its result or exception comes back to the GUI thread and is
handed to the caller's ``on_done``/``on_error``. An error the caller does
not handle goes to the one error router (:mod:`ui.errors`).

A task may name an ``owner`` QObject: when the owner is destroyed (a dialog or
list closed while its query ran) the task is cancelled, and a result that
arrives anyway is dropped instead of reaching a deleted widget.

Every task runs under a :class:`~fieldops.db.cancel.CancelToken`:
``cancel()`` interrupts its statement if it is running one (a superseded list
query must not keep a core busy), and its ``Cancelled`` ending is dropped
silently. The workers are daemon threads and ``shutdown()`` cancels what runs
without waiting for a query: closing the window never waits for one. Other
work still running (a save) gets a few seconds to finish, so a record the
user saved just before closing is not lost; past that the process exits and
the database rolls the unfinished transaction back whole.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QWidget

from fieldops.db.cancel import Cancelled, CancelToken, running
from ui.errors import ErrorRouter
from ui.gc import collect_on_gui_thread, release_on_gui_thread

DoneCallback = Callable[[Any], object]  # what it returns is not used
# Returns True when it dealt with the error; False sends it to the router.
ErrorCallback = Callable[[BaseException], bool]


class _Relay(QObject):
    """Lives on the GUI thread. Workers emit only a task id through it: the
    result itself waits in a locked dict, so no Python object ever crosses
    threads inside a queued signal (PySide6 has had reference-count bugs there)."""

    ready = Signal(int)


@dataclass
class _Pending:
    on_done: DoneCallback | None
    on_error: ErrorCallback | None
    owner: QObject | None
    token: CancelToken = field(default_factory=CancelToken)


@dataclass(frozen=True)
class Call:
    """One call for ``TaskRunner.run_pair``: ``fn(*args)`` and where its ending goes."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    on_done: DoneCallback | None = None
    on_error: ErrorCallback | None = None


_STOP = object()


class _Workers:
    """Daemon threads started as work arrives, up to ``limit``.

    Not a ThreadPoolExecutor: its threads are joined when the interpreter
    exits, so a query still running would keep a closed app's process alive.

    A job holds Qt objects (the runner, a list model's bound methods); a worker
    that let go of one itself could drop the last reference to a Python-owned
    QObject and destroy it on the worker thread while the GUI thread uses it. So
    a worker reaches its job only through a one-item box, and hands the box to
    the GUI thread to empty once the job is over (:mod:`ui.gc`).
    """

    def __init__(self, limit: int, name: str) -> None:
        self._limit = limit
        self._name = name
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._idle = 0

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._idle == 0 and len(self._threads) < self._limit:
                t = threading.Thread(
                    target=self._loop, daemon=True, name=f"{self._name}-{len(self._threads)}"
                )
                self._threads.append(t)
                t.start()
            else:
                self._idle -= 1 if self._idle else 0
        self._jobs.put([job])  # the worker's only way to the job (see the class)

    def stop(self) -> None:
        """Idle threads end; busy ones end after their job. Nobody waits."""
        with self._lock:
            threads = len(self._threads)
        for _ in range(threads):
            self._jobs.put(_STOP)

    def _loop(self) -> None:
        while True:
            box = self._jobs.get()
            if box is _STOP:
                return
            with contextlib.suppress(BaseException):
                box[0]()
            release_on_gui_thread(box)
            with self._lock:
                self._idle += 1


class TaskRunner(QObject):
    """Runs functions on worker threads; ``busy_changed`` tells when work starts and stops."""

    busy_changed = Signal(bool)

    # How long closing waits for running work that is not a query (a save).
    SHUTDOWN_WAIT_S = 10.0

    def __init__(
        self, errors: ErrorRouter, parent: QObject | None = None, max_threads: int = 4
    ) -> None:
        super().__init__(parent)
        self._errors = errors
        # Qt objects must never be destroyed by a collection on a worker thread.
        collect_on_gui_thread()
        self._workers = _Workers(max_threads, "fieldops-task")
        self._relay = _Relay(self)
        self._relay.ready.connect(self._on_relay_ready)
        self._lock = threading.Lock()
        self._outcomes: dict[int, tuple[bool, Any, str]] = {}
        self._running: dict[int, CancelToken] = {}  # on a worker now (guarded by _lock)
        self._finished = threading.Condition(self._lock)
        self._pending: dict[int, _Pending] = {}
        self._owned: dict[int, set[int]] = {}  # id(owner) -> its undelivered tasks
        self._ids = itertools.count(1)
        self._closed = False

    def run(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_done: DoneCallback | None = None,
        on_error: ErrorCallback | None = None,
        owner: QObject | None = None,
        **kwargs: Any,
    ) -> int:
        """Call ``fn(*args, **kwargs)`` on a worker thread; returns the task's id."""
        if self._closed:
            return 0
        was_idle = not self._pending
        task_id, token = self._add(on_done, on_error, owner)
        self._workers.submit(lambda: self._work(task_id, token, fn, args, kwargs))
        if was_idle:
            self.busy_changed.emit(True)
        return task_id

    def run_pair(self, first: Call, then: Call, owner: QObject | None = None) -> tuple[int, int]:
        """Two calls one after the other on one worker, each delivered as it ends; their ids.

        A list's first page and its count: the count never holds the page back (the page is
        delivered before the count starts), yet the two cost one hand-over to a worker, not
        two threads woken and contending for the interpreter (the fixed part of every small
        answer, issue 14). Each is cancelled or interrupted by its own id, as from ``run``.
        """
        if self._closed:
            return 0, 0
        was_idle = not self._pending
        ids = self._add(first.on_done, first.on_error, owner)
        then_ids = self._add(then.on_done, then.on_error, owner)

        def job() -> None:
            self._work(*ids, first.fn, first.args, {})
            self._work(*then_ids, then.fn, then.args, {})

        self._workers.submit(job)
        if was_idle:
            self.busy_changed.emit(True)
        return ids[0], then_ids[0]

    def _add(
        self, on_done: DoneCallback | None, on_error: ErrorCallback | None, owner: QObject | None
    ) -> tuple[int, CancelToken]:
        task_id = next(self._ids)
        pending = self._pending[task_id] = _Pending(on_done, on_error, owner)
        if owner is not None:
            self._own(owner, task_id)
        return task_id, pending.token

    def cancel(self, task_id: int) -> None:
        """Forget a task: a queued one never runs, a running one's statement is interrupted
        and its result dropped."""
        pending = self._pending.pop(task_id, None)
        if pending is not None:
            pending.token.cancel()
            self._disown(pending.owner, task_id)
            self._after_delivery()

    def interrupt(self, task_id: int) -> None:
        """From any thread: stop a task's statement (a queued one never runs). Unlike
        ``cancel`` it forgets nothing: the task's ``Cancelled`` ending comes back to the GUI
        thread and is dropped there, as a superseded answer's is."""
        pending = self._pending.get(task_id)  # one dict read: safe off the GUI thread
        if pending is not None:
            pending.token.cancel()

    def _own(self, owner: QObject, task_id: int) -> None:
        key = id(owner)
        tasks = self._owned.get(key)
        if tasks is None:
            tasks = self._owned[key] = set()
            owner.destroyed.connect(lambda *_: self._on_owner_destroyed(key))
        tasks.add(task_id)

    def _disown(self, owner: QObject | None, task_id: int) -> None:
        if owner is not None:
            self._owned.get(id(owner), set()).discard(task_id)

    def _on_owner_destroyed(self, key: int) -> None:
        if self._closed or not shiboken6.isValid(self):
            return
        for task_id in self._owned.pop(key, set()):
            self.cancel(task_id)

    def is_pending(self, task_id: int) -> bool:
        return task_id in self._pending

    def pending_count(self) -> int:
        """Tasks whose result has not yet been delivered (tests wait for 0)."""
        return len(self._pending)

    def shutdown(self) -> None:
        """Stop taking work, drop queued calls and cancel the running ones.

        A running query is interrupted and never waited for. Other running
        work (a save) has up to ``SHUTDOWN_WAIT_S`` to finish; whatever is
        left is a daemon thread, which the process does not wait for.
        """
        if self._closed:
            return
        self._closed = True
        pending = list(self._pending.values())
        self._pending.clear()
        self._owned.clear()
        for p in pending:
            p.token.cancel()
        self._workers.stop()
        deadline = time.monotonic() + self.SHUTDOWN_WAIT_S
        with self._finished:
            # Interrupted queries end on their own; nobody waits for them.
            while any(not t.querying for t in self._running.values()):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._finished.wait(left)

    # -- worker side -----------------------------------------------------

    def _work(
        self,
        task_id: int,
        token: CancelToken,
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        if token.cancelled:  # cancelled while queued: it never runs
            outcome: tuple[bool, Any, str] = (False, Cancelled("cancelled before it ran"), "")
        else:
            with self._lock:
                self._running[task_id] = token
            try:
                with running(token):
                    outcome = (True, fn(*args, **kwargs), "")
            except Cancelled as exc:  # dropped on delivery: no traceback to format
                outcome = (False, exc, "")
            except BaseException as exc:  # every failure must reach the GUI thread
                outcome = (False, exc, traceback.format_exc())
            finally:
                with self._finished:
                    del self._running[task_id]
                    self._finished.notify_all()
        if self._closed:
            return  # nobody is left to tell
        with self._lock:
            self._outcomes[task_id] = outcome
        # RuntimeError: the runner is gone (the app is closing) and nobody is left to tell.
        with contextlib.suppress(RuntimeError):
            self._relay.ready.emit(task_id)

    # -- GUI side --------------------------------------------------------

    @Slot(int)
    def _on_relay_ready(self, task_id: int) -> None:
        with self._lock:
            ok, value, details = self._outcomes.pop(task_id, (True, None, ""))
        pending = self._pending.pop(task_id, None)
        if pending is None:  # cancelled: its ending was already counted
            return
        self._disown(pending.owner, task_id)
        if not ok and isinstance(value, Cancelled):
            pass  # superseded: nobody wants the answer
        elif pending.owner is None or shiboken6.isValid(pending.owner):
            if ok:
                if pending.on_done is not None:
                    pending.on_done(value)
            elif not (pending.on_error and pending.on_error(value)):
                self._errors.report(value, details, parent=_window_of(pending.owner))
        self._after_delivery()

    def _after_delivery(self) -> None:
        if not self._pending and not self._closed:
            self.busy_changed.emit(False)


def _window_of(owner: QObject | None) -> QWidget | None:
    return owner.window() if isinstance(owner, QWidget) else None
