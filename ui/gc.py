"""Python's cyclic garbage collection, on the GUI thread only.

A Qt object caught in a reference cycle is destroyed by whichever thread
happens to trigger the collector. When that is a worker thread running a
service call, the object's destructor takes Qt's signal-slot lock and then
waits for the GIL, while the GUI thread holds the GIL and waits for that lock:
the app freezes (seen in this project's test suite, py-spy on both threads).
So, as Anki does, automatic collection is switched off and the same
generational thresholds are applied from a timer on the GUI thread.

The same holds for plain reference counting: whichever thread lets go of the
last reference to a Qt object's Python wrapper runs its C++ destructor, on the
spot. A worker thread is done with a task's function and arguments (a list
model's bound methods, the task runner itself) only after the task ends, and
it may be the last holder by then, so it lets go of them through
:func:`release_on_gui_thread` and the timer here drops them on the GUI thread.
"""

from __future__ import annotations

import gc
import threading
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer

INTERVAL_MS = 500


class GuiThreadCollector(QObject):
    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self._on_timer_timeout)
        self.timer.start()

    def _on_timer_timeout(self) -> None:
        self.collect_due()

    def collect_due(self) -> int:
        """Collect the generations whose counts passed their thresholds, oldest last."""
        release_parked()
        counts = gc.get_count()
        found = 0
        for generation in range(3):
            if counts[generation] <= self.thresholds[generation]:
                break
            found += gc.collect(generation)
        return found


_installed: GuiThreadCollector | None = None

_parked: list[list[Any]] = []  # boxes workers are done with, emptied on the GUI thread
_parked_lock = threading.Lock()


def release_on_gui_thread(box: list[Any]) -> None:
    """From a worker thread: drop what ``box`` holds on the GUI thread, not here.

    The worker must reach the objects only through the box (no local of its own
    pointing at them) when it calls this: the GUI thread empties the box, so its
    reference is the last one whatever the worker does with the box after.
    """
    with _parked_lock:
        _parked.append(box)


def release_parked() -> None:
    """On the GUI thread: let go of what workers parked (the collector's timer calls it)."""
    with _parked_lock:
        boxes = _parked[:]
        _parked.clear()
    for box in boxes:  # outside the lock: a destructor may run any code
        box.clear()


def collect_on_gui_thread() -> GuiThreadCollector | None:
    """Install the collector once per application (idempotent); call on the GUI thread."""
    global _installed
    app = QCoreApplication.instance()
    if app is None:
        return None
    if _installed is None or _installed.parent() is not app:
        _installed = GuiThreadCollector(app)
    return _installed
