"""The People and animals page over a million people, against a bare Qt window.

Baseline (TOOLCHAIN.md): a QMainWindow with a 20-row table shown and its
first paint done, measured in this run. The page must open with its counts
and first rows, and answer a search, within a small multiple of that: the
user sees no pause. Run offscreen (``make bench``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench.common import Result, median_time


def _wait(app, done, timeout=30.0) -> None:
    end = time.perf_counter() + timeout
    while not done():
        app.processEvents()
        if time.perf_counter() > end:
            raise TimeoutError("the page did not answer in time")
        time.sleep(0.001)


def run(path: Path, people: int) -> list[Result]:
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, qInstallMessageHandler
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableView

    from bench import registry
    from fieldops.services.context import Actor
    from ui.app import build_main_window, configure_application
    from ui.errors import ErrorRouter

    # The offscreen platform's note on every resize is not the app talking.
    qInstallMessageHandler(
        lambda mode, ctx, msg: None if "propagateSizeHints" in msg else print(msg)
    )
    app = QApplication.instance() or QApplication([])
    configure_application(app)
    db = registry.build(path, people)

    class Twenty(QAbstractTableModel):
        def rowCount(self, parent=QModelIndex()):  # noqa: B008
            return 0 if parent.isValid() else 20

        def columnCount(self, parent=QModelIndex()):  # noqa: B008
            return 0 if parent.isValid() else 5

        def data(self, index, role=Qt.ItemDataRole.DisplayRole):
            return (
                f"{index.row()},{index.column()}" if role == Qt.ItemDataRole.DisplayRole else None
            )

    def bare_window():
        w = QMainWindow()
        view = QTableView()
        view.setModel(Twenty())
        w.setCentralWidget(view)
        w.resize(1280, 800)
        w.show()
        app.processEvents()
        w.grab()  # the first paint, done
        w.close()
        w.deleteLater()
        app.processEvents()

    def open_people_page():
        w = build_main_window(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
        w.show()
        page = w.show_area("people")
        _wait(app, lambda: page.people_model.has_answer() and page.animals_model.has_answer())
        w.grab()
        w.ctx.shutdown()
        w.close()
        w.deleteLater()
        app.processEvents()

    w = build_main_window(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
    w.show()
    page = w.show_area("people")
    _wait(app, lambda: page.people_model.has_answer())

    def search(text):
        def go():
            before = page.people_model
            before.search(text)
            _wait(app, lambda: not before.is_searching())
            w.grab()

        return go

    base = median_time(bare_window)
    results = [
        Result(
            "People page opens: counts and first rows shown",
            median_time(open_people_page),
            "bare window, 20-row table",
            base,
            10,
        ),
        Result(
            "search 'ruiz' answered and painted",
            median_time(search("ruiz")),
            "bare window, 20-row table",
            base,
            10,
        ),
        Result(
            "search '608-555-0142' answered and painted",
            median_time(search("608-555-0142")),
            "bare window, 20-row table",
            base,
            10,
        ),
    ]
    w.ctx.shutdown()
    w.close()
    db.dispose()
    return results


# --- Quarantines and Vicious over a city's impound history (issue 14) --------------------

QUARANTINES = 200_000
VICIOUS = 20_000


def _fill_cases(db, quarantines: int, vicious: int) -> None:
    """Bite reports with their quarantines, and vicious-animal cases with their declarations,
    over the impound database's people and animals (bulk inserts, once per file)."""
    import random
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import func, insert, select

    from fieldops.db.models import (
        Animal,
        BiteReport,
        Person,
        Quarantine,
        ViciousCase,
        ViciousDeclaration,
    )

    with db.read() as s:
        if s.scalar(select(func.count()).select_from(Quarantine)):
            return
        animals = s.scalar(select(func.max(Animal.id))) or 1
        people = s.scalar(select(func.max(Person.id))) or 1
        names = dict(s.execute(select(Animal.id, Animal.name).where(Animal.id <= 50_000)).all())
        owners = dict(
            s.execute(select(Person.id, Person.full_name).where(Person.id <= 50_000)).all()
        )
    rng = random.Random(11)
    end = datetime(2026, 11, 30, 12, tzinfo=UTC)
    start = end - timedelta(days=3650)
    step = timedelta(days=3650) / max(quarantines, 1)
    bites, orders = [], []
    for i in range(quarantines):
        when = start + step * i
        animal = rng.randint(1, min(animals, 50_000))
        owner = rng.randint(1, min(people, 50_000))
        day = when.date() + timedelta(days=1)
        open_ = i >= quarantines - 300
        bites.append(
            {
                "id": i + 1,
                "bitten_at": when,
                "place": "1 Elm St",
                "victim_name": "A. Victim",
                "species": "dog",
                "animal_id": animal,
                "owner_id": owner,
                "reported_by": "bench",
                "reported_at": when,
                "officer": "Off. Lee",
                "recorded_at": when,
                "recorded_by": "bench",
            }
        )
        orders.append(
            {
                "id": i + 1,
                "bite_report_id": i + 1,
                "animal_id": animal,
                "ordered_at": when,
                "ordered_placement": "home",
                "status": "open" if open_ else "certified",
                "placement": "home",
                "first_exam_day": day,
                "last_day": day + timedelta(days=9),
                "certificate_due": day + timedelta(days=14),
                "certificate_received_on": None if open_ else day + timedelta(days=12),
                "next_exam_due": day + timedelta(days=8) if open_ else None,
                "next_exam_by": day + timedelta(days=9) if open_ else None,
                "animal_name": names.get(animal, "") or "(no name)",
                "owner_name": owners.get(owner, ""),
                "recorded_by": "bench",
                "created_at": when,
                "updated_at": when,
                "version": 1,
            }
        )
    statuses = ("declared", "served", "removed", "destroyed", "not_complied", "withdrawn")
    step = timedelta(days=3650) / max(vicious, 1)
    cases, declarations = [], []
    for i in range(vicious):
        when = start + step * i
        animal = rng.randint(1, min(animals, 50_000))
        owner = rng.randint(1, min(people, 50_000))
        status = rng.choice(statuses) if i < vicious - 40 else "served"
        cases.append(
            {
                "id": i + 1,
                "animal_id": animal,
                "owner_id": owner,
                "status": status,
                "opened_at": when,
                "notice_deadline": when + timedelta(days=14) if status != "declared" else None,
                "search_text": f"{names.get(animal, '')} {owners.get(owner, '')}".lower(),
                "created_at": when,
                "updated_at": when,
                "version": 1,
            }
        )
        declarations.append(
            {
                "case_id": i + 1,
                "decided_at": when,
                "officer": "Off. Lee",
                "allowed": True,
                "grounds": [],
                "findings": {},
                "refusal_reasons": [],
                "recorded_by": "bench",
                "recorded_at": when,
            }
        )
    with db.write() as s:
        s.execute(insert(BiteReport.__table__), bites)
        s.execute(insert(Quarantine.__table__), orders)
        s.execute(insert(ViciousCase.__table__), cases)
        s.execute(insert(ViciousDeclaration.__table__), declarations)


def run_quarantines(path: Path, impoundments: int, quarantines: int = QUARANTINES) -> list[Result]:
    """The Quarantines list: each filter, each sort, a search, the last page, one record."""
    import sqlite3
    from datetime import date

    from PySide6.QtWidgets import QApplication

    from bench.impound_list import build, figure, last_page_figure, record_figure
    from fieldops.services.context import Actor
    from fieldops.services.quarantine import QuarantineFilter
    from fieldops.services.quarantine.listing import FILTERS, SORTS
    from fieldops.services.quarantine.records import get_quarantine
    from ui.app import build_context
    from ui.errors import ErrorRouter
    from ui.quarantine.list_model import QuarantineTableModel

    app = QApplication.instance() or QApplication([])
    db = build(path, impoundments)
    _fill_cases(db, quarantines, VICIOUS)
    today = date(2026, 11, 30)
    ctx = build_context(
        db, Actor("bench", "admin"), today=lambda: today, errors=ErrorRouter(interactive=False)
    )
    model = QuarantineTableModel(ctx)
    raw = sqlite3.connect(path)
    # The city's own count (a generated city has as many as its size calls for).
    quarantines, last_id = raw.execute("SELECT count(*), max(id) FROM quarantine").fetchone()

    def show(**kw):
        return lambda: model.set_filter(QuarantineFilter(**kw))

    n = f"{quarantines:,}"
    results = [figure(f"quarantines {n}: open, count and first page", app, model, db, raw, show())]
    for key in FILTERS:
        if key != "open":
            results.append(figure(f"quarantines {n}: {key}", app, model, db, raw, show(show=key)))
    for sort in SORTS:
        for descending in (False, True):
            arrow = "desc" if descending else "asc"
            results.append(
                figure(
                    f"quarantines {n}: all by {sort} {arrow}",
                    app,
                    model,
                    db,
                    raw,
                    show(show="all", sort=sort, descending=descending),
                )
            )
    from fieldops.demo import LAST

    results.append(
        figure(
            f"quarantines {n}: search '{LAST[0].lower()}', all",
            app,
            model,
            db,
            raw,
            show(show="all", text=LAST[0].lower()),
        )
    )
    results.append(
        last_page_figure(
            f"quarantines {n}: all by last day, last page", app, model, db, raw, show(show="all")
        )
    )
    results.append(
        record_figure(
            f"quarantines {n}: one record's view",
            app,
            ctx.tasks,
            db,
            raw,
            get_quarantine,
            db,
            last_id - 10,
            ctx.profile,
            today,
        )
    )
    ctx.shutdown()
    raw.close()
    db.dispose()
    return results


def run_vicious(path: Path, impoundments: int, cases: int = VICIOUS) -> list[Result]:
    """The Vicious cases list: each filter, each sort, a search, the last page, one record."""
    import sqlite3

    from PySide6.QtWidgets import QApplication

    from bench.impound_list import build, figure, last_page_figure, record_figure
    from fieldops.services.context import Actor
    from fieldops.services.vicious.cases import load_case
    from fieldops.services.vicious.listing import FILTERS, SORTS, CaseFilter
    from ui.app import build_context
    from ui.errors import ErrorRouter
    from ui.vicious.list_model import CaseTableModel

    app = QApplication.instance() or QApplication([])
    db = build(path, impoundments)
    _fill_cases(db, QUARANTINES, cases)
    ctx = build_context(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
    model = CaseTableModel(ctx)
    raw = sqlite3.connect(path)
    cases, last_id = raw.execute("SELECT count(*), max(id) FROM vicious_case").fetchone()

    def show(**kw):
        return lambda: model.set_filter(CaseFilter(**kw))

    n = f"{cases:,}"
    results = [figure(f"vicious {n}: open, count and first page", app, model, db, raw, show())]
    for key in FILTERS:
        if key != "open":
            results.append(figure(f"vicious {n}: {key}", app, model, db, raw, show(status=key)))
    for sort in SORTS:
        for descending in (False, True):
            arrow = "desc" if descending else "asc"
            results.append(
                figure(
                    f"vicious {n}: all by {sort} {arrow}",
                    app,
                    model,
                    db,
                    raw,
                    show(status="all", sort=sort, descending=descending),
                )
            )
    from fieldops.demo import LAST

    results.append(
        figure(
            f"vicious {n}: search '{LAST[0].lower()}', all",
            app,
            model,
            db,
            raw,
            show(status="all", text=LAST[0].lower()),
        )
    )
    results.append(
        last_page_figure(
            f"vicious {n}: all by deadline, last page", app, model, db, raw, show(status="all")
        )
    )
    results.append(
        record_figure(
            f"vicious {n}: one record's view",
            app,
            ctx.tasks,
            db,
            raw,
            load_case,
            db,
            last_id - 10,
            ctx.profile,
        )
    )
    ctx.shutdown()
    raw.close()
    db.dispose()
    return results


def run_people(path: Path, impoundments: int) -> list[Result]:
    """The People list and the Animals list of the People page, through the page's own
    models: first page with count, a search, the last page and one person's record."""
    import sqlite3

    from PySide6.QtWidgets import QApplication

    from bench.impound_list import build, figure, last_page_figure, record_figure
    from fieldops.demo import LAST
    from fieldops.services.context import Actor
    from fieldops.services.people import get_person
    from ui.app import build_context
    from ui.errors import ErrorRouter
    from ui.people.page import PeopleAndAnimalsWidget

    app = QApplication.instance() or QApplication([])
    db = build(path, impoundments)
    ctx = build_context(db, Actor("bench", "admin"), errors=ErrorRouter(interactive=False))
    page = PeopleAndAnimalsWidget(ctx)
    raw = sqlite3.connect(path)
    people, last_id = raw.execute("SELECT count(*), max(id) FROM person").fetchone()
    n = f"{people:,}"
    results = []
    for label, model in (("people", page.people_model), ("animals", page.animals_model)):
        results.append(
            figure(
                f"{label} ({n} people): count and first page",
                app,
                model,
                db,
                raw,
                lambda m=model: m.search(""),
            )
        )
        results.append(
            figure(
                f"{label} ({n} people): search '{LAST[0].lower()}'",
                app,
                model,
                db,
                raw,
                lambda m=model: m.search(LAST[0].lower()),
            )
        )
        results.append(
            last_page_figure(
                f"{label} ({n} people): last page",
                app,
                model,
                db,
                raw,
                lambda m=model: m.search(""),
            )
        )
    results.append(
        record_figure(
            f"people ({n}): one person's record",
            app,
            ctx.tasks,
            db,
            raw,
            get_person,
            db,
            last_id // 2,
        )
    )
    ctx.shutdown()
    page.deleteLater()
    raw.close()
    db.dispose()
    return results


if __name__ == "__main__":
    import sys
    import tempfile

    size = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    where = Path(sys.argv[3]) if len(sys.argv) > 3 else Path(tempfile.gettempdir())
    suite = {"quarantines": run_quarantines, "vicious": run_vicious, "people": run_people}[
        sys.argv[1]
    ]
    for r in suite(where / f"impoundments-{size}.db", size):
        print(r.line(), flush=True)
