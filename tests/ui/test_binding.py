"""The Qt binding must not lose references to None, True and False.

PySide6-Essentials 6.12.0 on Python 3.11 (where None and the booleans are
not yet immortal) drops one reference each time one of them passes through a
QVariant: a model's data() returning None, Signal(object) emitting None,
combo-box item data. Every table view calls data() for many roles per cell,
so a session of scrolling ends in "Fatal Python error: none_dealloc"
(measured: 10,000 calls of data() were enough). 6.11.3 and 6.10.3 are clean.
This test names the broken build instead of leaving a crash at exit.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, Signal
    from PySide6.QtWidgets import QApplication, QComboBox

    app = QApplication([])

    class Model(QAbstractTableModel):
        def rowCount(self, parent=QModelIndex()):
            return 1
        def columnCount(self, parent=QModelIndex()):
            return 1
        def data(self, index, role=Qt.ItemDataRole.DisplayRole):
            return None

    class Emitter(QObject):
        sent = Signal(object)

    model = Model()
    index = model.index(0, 0)
    emitter = Emitter()
    emitter.sent.connect(lambda value: None)
    combo = QComboBox()
    combo.addItem("unknown", None)
    combo.addItem("yes", True)
    lost = {}
    for name, step in (("data() returning None", lambda: index.data()),
                       ("Signal(object) emitting None", lambda: emitter.sent.emit(None)),
                       ("combo item data", lambda: (combo.itemData(0), combo.itemData(1)))):
        before = sys.getrefcount(None) + sys.getrefcount(True)
        for _ in range(500):
            step()
        lost[name] = before - sys.getrefcount(None) - sys.getrefcount(True)
    bad = {k: v for k, v in lost.items() if v > 50}
    print(bad or "ok")
    sys.exit(1 if bad else 0)
""")


def test_none_and_booleans_keep_their_references_through_qt():
    import PySide6

    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        env=_offscreen_env(),
    )
    assert result.returncode == 0, (
        f"PySide6 {PySide6.__version__} on Python {sys.version.split()[0]} loses references "
        f"to None/True ({result.stdout.strip() or result.stderr.strip()[-300:]}); "
        "the app would crash after some use. Use a PySide6-Essentials build other than "
        "6.12.0 (6.11.3 is known good)."
    )


def _offscreen_env() -> dict[str, str]:
    import os

    return {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
