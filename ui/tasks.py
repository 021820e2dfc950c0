"""Service calls off the GUI thread, with results delivered on it by signal.

Every query that can grow (list counts, pages, searches) and every save runs
here, never on the GUI thread (STYLE.md). A task is a plain function call; its
result or exception comes back to the GUI thread through a queued signal and
is handed to the caller's ``on_done``/``on_error``. An error the caller does
not handle goes to the one error router (:mod:`ui.errors`).

A task may name an ``owner`` QObject: when the owner is gone by the time the
result arrives (a dialog closed while its query ran), the result is dropped
instead of reaching a deleted widget.
"""

from __future__ import annotations

import itertools
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from ui.errors import ErrorRouter

DoneCallback = Callable[[Any], None]
# Returns True when it dealt with the error; False sends it to the router.
ErrorCallback = Callable[[BaseException], bool]


class _JobSignals(QObject):
    """Lives on the GUI thread; emitted from a pool thread, so delivery is queued."""

    finished = Signal(int, object)
    failed = Signal(int, object, str)


class _Ticket:
    """Shared by a job and its pending entry; the pool owns (and deletes) the job itself."""

    def __init__(self) -> None:
        self.cancelled = False


class _Job(QRunnable):
    def __init__(self, task_id: int, fn: Callable[[], Any], signals: _JobSignals,
                 ticket: _Ticket) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._task_id = task_id
        self._fn = fn
        self._signals = signals
        self._ticket = ticket

    def run(self) -> None:
        if self._ticket.cancelled:  # cancelled while queued: skip the query
            return
        try:
            result = self._fn()
        except BaseException as exc:  # every failure must reach the GUI thread
            self._signals.failed.emit(self._task_id, exc, traceback.format_exc())
            return
        self._signals.finished.emit(self._task_id, result)


@dataclass
class _Pending:
    on_done: DoneCallback | None
    on_error: ErrorCallback | None
    owner: QObject | None
    ticket: _Ticket


class TaskRunner(QObject):
    """Runs functions on a thread pool; ``busy_changed`` tells when work starts and stops."""

    busy_changed = Signal(bool)

    def __init__(self, errors: ErrorRouter, parent: QObject | None = None,
                 max_threads: int = 4) -> None:
        super().__init__(parent)
        self._errors = errors
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._signals = _JobSignals(self)
        self._signals.finished.connect(self._on_job_finished)
        self._signals.failed.connect(self._on_job_failed)
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._closed = False

    def run(self, fn: Callable[..., Any], *args: Any, on_done: DoneCallback | None = None,
            on_error: ErrorCallback | None = None, owner: QObject | None = None,
            **kwargs: Any) -> int:
        """Call ``fn(*args, **kwargs)`` on a worker thread; returns the task's id."""
        if self._closed:
            return 0
        task_id = next(self._ids)
        ticket = _Ticket()
        was_idle = not self._pending
        self._pending[task_id] = _Pending(on_done, on_error, owner, ticket)
        self._pool.start(_Job(task_id, lambda: fn(*args, **kwargs), self._signals, ticket))
        if was_idle:
            self.busy_changed.emit(True)
        return task_id

    def cancel(self, task_id: int) -> None:
        """Forget a task: a queued one never runs, a running one's result is dropped."""
        pending = self._pending.pop(task_id, None)
        if pending is not None:
            pending.ticket.cancelled = True
            self._after_delivery()

    def is_pending(self, task_id: int) -> bool:
        return task_id in self._pending

    def pending_count(self) -> int:
        """Tasks whose result has not yet been delivered (tests wait for 0)."""
        return len(self._pending)

    def shutdown(self, msecs: int = 10_000) -> bool:
        """Stop taking work, drop queued jobs, wait for running ones; True when all ended."""
        self._closed = True
        self._pool.clear()
        done = self._pool.waitForDone(msecs)
        self._pending.clear()
        return done

    def _on_job_finished(self, task_id: int, result: object) -> None:
        pending = self._take(task_id)
        if pending is not None and pending.on_done is not None:
            pending.on_done(result)
        self._after_delivery()

    def _on_job_failed(self, task_id: int, exc: BaseException, details: str) -> None:
        pending = self._take(task_id)
        if pending is not None and not (pending.on_error and pending.on_error(exc)):
            self._errors.report(exc, details, parent=_window_of(pending.owner))
        self._after_delivery()

    def _take(self, task_id: int) -> _Pending | None:
        pending = self._pending.pop(task_id, None)
        if pending is None or (pending.owner is not None and not shiboken6.isValid(pending.owner)):
            return None
        return pending

    def _after_delivery(self) -> None:
        if not self._pending and not self._closed:
            self.busy_changed.emit(False)


def _window_of(owner: QObject | None):
    window = getattr(owner, "window", None)
    return window() if callable(window) else None
