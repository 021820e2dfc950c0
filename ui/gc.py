"""Python's cyclic garbage collection, on the GUI thread only.

A Qt object caught in a reference cycle is destroyed by whichever thread
happens to trigger the collector. When that is a worker thread running a
service call, the object's destructor takes Qt's signal-slot lock and then
waits for the GIL, while the GUI thread holds the GIL and waits for that lock:
the app freezes (seen in this project's test suite, py-spy on both threads).
So, as Anki does, automatic collection is switched off and the same
generational thresholds are applied from a timer on the GUI thread.
"""

from __future__ import annotations

import gc

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
        counts = gc.get_count()
        found = 0
        for generation in range(3):
            if counts[generation] <= self.thresholds[generation]:
                break
            found += gc.collect(generation)
        return found


_installed: GuiThreadCollector | None = None


def collect_on_gui_thread() -> GuiThreadCollector | None:
    """Install the collector once per application (idempotent); call on the GUI thread."""
    global _installed
    app = QCoreApplication.instance()
    if app is None:
        return None
    if _installed is None or _installed.parent() is not app:
        _installed = GuiThreadCollector(app)
    return _installed
