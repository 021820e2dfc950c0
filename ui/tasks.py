"""Service calls off the GUI thread, with results delivered on it by signal.

Every query that can grow (list counts, pages, searches) and every save runs
here, never on the GUI thread (STYLE.md). A task is a plain function call on a
worker thread; its result or exception comes back to the GUI thread and is
handed to the caller's ``on_done``/``on_error``. An error the caller does
not handle goes to the one error router (:mod:`ui.errors`).

A task may name an ``owner`` QObject: when the owner is gone by the time the
result arrives (a dialog closed while its query ran), the result is dropped
instead of reaching a deleted widget.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, Signal, Slot

from ui.errors import ErrorRouter
from ui.gc import collect_on_gui_thread

DoneCallback = Callable[[Any], None]
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
    future: Future | None = None


class TaskRunner(QObject):
    """Runs functions on worker threads; ``busy_changed`` tells when work starts and stops."""

    busy_changed = Signal(bool)

    def __init__(self, errors: ErrorRouter, parent: QObject | None = None,
                 max_threads: int = 4) -> None:
        super().__init__(parent)
        self._errors = errors
        # Qt objects must never be destroyed by a collection on a worker thread.
        collect_on_gui_thread()
        self._executor = ThreadPoolExecutor(max_workers=max_threads,
                                            thread_name_prefix="fieldops-task")
        self._relay = _Relay(self)
        self._relay.ready.connect(self._on_relay_ready)
        self._lock = threading.Lock()
        self._outcomes: dict[int, tuple[bool, Any, str]] = {}
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
        was_idle = not self._pending
        pending = self._pending[task_id] = _Pending(on_done, on_error, owner)
        pending.future = self._executor.submit(self._work, task_id, fn, args, kwargs)
        if was_idle:
            self.busy_changed.emit(True)
        return task_id

    def cancel(self, task_id: int) -> None:
        """Forget a task: a queued one never runs, a running one's result is dropped."""
        pending = self._pending.pop(task_id, None)
        if pending is not None:
            if pending.future is not None:
                pending.future.cancel()
            self._after_delivery()

    def is_pending(self, task_id: int) -> bool:
        return task_id in self._pending

    def pending_count(self) -> int:
        """Tasks whose result has not yet been delivered (tests wait for 0)."""
        return len(self._pending)

    def shutdown(self) -> None:
        """Stop taking work, drop queued calls and wait for the running ones."""
        if self._closed:
            return
        self._closed = True
        self._pending.clear()
        self._executor.shutdown(wait=True, cancel_futures=True)

    # -- worker side -----------------------------------------------------

    def _work(self, task_id: int, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        try:
            outcome = (True, fn(*args, **kwargs), "")
        except BaseException as exc:  # every failure must reach the GUI thread
            outcome = (False, exc, traceback.format_exc())
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
        if pending is not None and (pending.owner is None or shiboken6.isValid(pending.owner)):
            if ok:
                if pending.on_done is not None:
                    pending.on_done(value)
            elif not (pending.on_error and pending.on_error(value)):
                self._errors.report(value, details, parent=_window_of(pending.owner))
        self._after_delivery()

    def _after_delivery(self) -> None:
        if not self._pending and not self._closed:
            self.busy_changed.emit(False)


def _window_of(owner: QObject | None):
    window = getattr(owner, "window", None)
    return window() if callable(window) else None
