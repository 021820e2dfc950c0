"""The data-loss scenario of a dropped SQLite lock, run as the "app" process.

Usage: python tests/lost_locks.py DB_FILE DISTURBANCE

Saves a person, disturbs the database's files in this process (DISTURBANCE:
``close-fd`` opens and closes the database file once; ``dialog`` shows the
app's file dialog over the database's folder with every file's icon and type
asked for; ``stock-dialog`` does the same with Qt's own non-native dialog),
runs ``fieldops due`` in another process, saves two more, has a third process
read what it sees, and dies without closing anything. Prints JSON: the names
acknowledged, the codes of refused saves, and what the reader saw. What
survives the death is read by the caller.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_scenario(db_file: Path, disturbance: str) -> dict:
    """Run the scenario in a child process (the "app"); returns what it printed."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, __file__, str(db_file), disturbance],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["due_rc"] == 0, result["due_err"]
    return result


def names_in(path: str | os.PathLike[str]) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT full_name FROM person ORDER BY id")]
    finally:
        conn.close()


def show_dialog(folder: Path, stock: bool) -> int:
    from PySide6.QtCore import QCoreApplication, QModelIndex, Qt
    from PySide6.QtWidgets import QApplication, QFileDialog, QFileSystemModel

    from ui.common.file_dialogs import make_file_dialog

    app = QApplication.instance() or QApplication([])
    if stock:
        dialog = QFileDialog(None, "Save PDF", str(folder), "All files (*)")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    else:
        dialog = make_file_dialog(None, "Save PDF", folder, "All files (*)", saving=True)
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    dialog.setDirectory(str(folder))  # the user browses to the database's folder
    dialog.show()
    model = dialog.findChild(QFileSystemModel)
    listed: set[str] = set()
    deadline = time.monotonic() + 20
    settled_at = None
    while time.monotonic() < deadline:
        app.processEvents()
        root = model.index(str(folder))
        for row in range(model.rowCount(root)):
            for column in range(model.columnCount(QModelIndex())):
                index = model.index(row, column, root)
                model.data(index, Qt.ItemDataRole.DecorationRole)  # the icon
                model.data(index, Qt.ItemDataRole.DisplayRole)  # name, size, type, date
            listed.add(model.fileName(model.index(row, 0, root)))
        if settled_at is None and {"fieldops.db", "fieldops.db-wal"} <= listed:
            settled_at = time.monotonic() + 2  # listed: two seconds for the icon thread
        if settled_at is not None and time.monotonic() > settled_at:
            break
        time.sleep(0.02)
    dialog.close()
    QCoreApplication.processEvents()
    return len(listed)


def main(db_file: str, disturbance: str) -> None:
    from fieldops.db.models import StaffUser
    from fieldops.services.context import Actor
    from fieldops.services.people import PersonInput, create_person
    from fieldops.services.setup import open_database

    db = open_database(db_file).db
    actor = Actor("clerk7", "operator")
    with db.write() as s:  # an account to save as (issue 12: the role is the database's)
        if not s.query(StaffUser).filter_by(username="clerk7").first():
            s.add(StaffUser(username="clerk7", full_name="Clerk Seven", role="operator"))
    acked: list[str] = []
    refused: list[str] = []

    def save(name: str) -> None:
        try:
            create_person(db, actor, PersonInput(full_name=name))
        except Exception as exc:  # what the app would show instead of "saved"
            refused.append(getattr(exc, "code", type(exc).__name__))
        else:
            acked.append(name)

    save("Ada First")
    listed = 0
    if disturbance == "close-fd":
        os.close(os.open(db_file, os.O_RDONLY))
    elif disturbance in ("dialog", "stock-dialog"):
        listed = show_dialog(Path(db_file).parent, stock=disturbance == "stock-dialog")
    due = subprocess.run(
        [sys.executable, "-m", "fieldops.cli", "--db", db_file, "due"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    save("Ben Second")
    save("Cy Third")
    reader = subprocess.run(
        [sys.executable, __file__, db_file, "read"], capture_output=True, text=True, timeout=120
    )
    seen = json.loads(reader.stdout)
    print(
        json.dumps(
            {
                "acked": acked,
                "refused": refused,
                "seen": seen,
                "listed": listed,
                "due_rc": due.returncode,
                "due_err": due.stderr[-400:],
            }
        ),
        flush=True,
    )
    os._exit(0)  # the app dies: nothing closed, nothing checkpointed


if __name__ == "__main__":
    if sys.argv[2] == "read":  # another process's view
        print(json.dumps(names_in(sys.argv[1])))
    else:
        main(sys.argv[1], sys.argv[2])
