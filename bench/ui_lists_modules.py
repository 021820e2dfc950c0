"""The Calls, Licences and Permits lists on the generated city (issue 14), driven through
their real list models as the other lists are (bench/ui_lists.py): the default view
with its count, each filter (and each kind), each sort both ways, a search, the last
page, and one record's view, each against its statements replayed raw."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.common import Result


@dataclass
class _Drive:
    """One list's model in a fresh app context on the city, and what it takes to time it."""

    app: Any
    ctx: Any
    db: Any
    raw: sqlite3.Connection
    model: Any

    def close(self) -> None:
        self.ctx.shutdown()
        self.raw.close()
        self.db.dispose()


def _open(path: Path, impoundments: int, model_of: Callable[[Any], Any]) -> _Drive:
    from PySide6.QtWidgets import QApplication

    from bench.city import NOW, TODAY
    from bench.impound_list import build
    from fieldops.services.context import Actor
    from ui.app import build_context
    from ui.errors import ErrorRouter

    app = QApplication.instance() or QApplication([])
    db = build(path, impoundments)
    ctx = build_context(
        db, Actor("bench", "admin"), today=lambda: TODAY, errors=ErrorRouter(interactive=False)
    )
    ctx.now = lambda: NOW  # the city's clock: "last 7 days", Today's overdue
    return _Drive(app, ctx, db, sqlite3.connect(path), model_of(ctx))


def _figures(
    d: _Drive,
    label: str,
    views: Iterable[tuple[str, Any]],
    last: tuple[str, Any],
    record: tuple[str, Callable[..., Any], tuple[Any, ...]],
) -> list[Result]:
    """Each (name, filter) view as a figure, the last page of ``last``, and one record."""
    from bench.impound_list import figure, last_page_figure, record_figure

    def show(f: Any) -> Callable[[], None]:
        return lambda: d.model.set_filter(f)

    out = [figure(f"{label}: {name}", d.app, d.model, d.db, d.raw, show(f)) for name, f in views]
    out.append(last_page_figure(f"{label}: {last[0]}", d.app, d.model, d.db, d.raw, show(last[1])))
    name, fn, args = record
    out.append(record_figure(f"{label}: {name}", d.app, d.ctx.tasks, d.db, d.raw, fn, *args))
    return out


def _search_word() -> str:
    from fieldops.demo import LAST

    return LAST[0].lower()


def run_calls(path: Path, impoundments: int) -> list[Result]:
    """The Calls list: open calls first (its default), each view and kind, a period, a
    search, the last page of all calls, one call's view."""
    from fieldops.rules.calls import CALL_KINDS
    from fieldops.services.calls.listing import PERIODS, SHOW, CallFilter
    from fieldops.services.calls.records import get_call
    from ui.calls.list_model import CallTableModel

    d = _open(path, impoundments, CallTableModel)
    try:
        calls, last_id = d.raw.execute("SELECT count(*), max(id) FROM field_call").fetchone()
        base = CallFilter(officer="lee")  # "mine": one of the city's field officers
        views: list[tuple[str, Any]] = [("open, count and first page", base)]
        views += [(key, replace(base, show=key)) for key in SHOW if key != "open"]
        views += [(f"all, kind {k}", replace(base, show="all", kind=k)) for k in CALL_KINDS]
        views += [
            (f"all, last {p} days", replace(base, show="all", period=p)) for p in PERIODS if p
        ]
        word = _search_word()
        views.append((f"search '{word}', all", replace(base, show="all", text=word)))
        everything = replace(base, show="all")
        return _figures(
            d,
            f"calls {calls:,}",
            views,
            ("all, last page", everything),
            ("one call's view", get_call, (d.db, last_id - 10)),
        )
    finally:
        d.close()


def run_licences(path: Path, impoundments: int) -> list[Result]:
    """The Licences list: current (its default) with its count, each filter, each sort both
    ways, a search, the last page of all licences, one licence's view."""
    from fieldops.services.licences.listing import FILTERS, SORTS, LicenceFilter
    from fieldops.services.licences.views import get_licence
    from ui.licences.list_model import LicenceTableModel

    d = _open(path, impoundments, LicenceTableModel)
    try:
        n, last_id = d.raw.execute("SELECT count(*), max(id) FROM dog_licence").fetchone()
        views: list[tuple[str, Any]] = [("current, count and first page", LicenceFilter())]
        views += [(key, LicenceFilter(show=key)) for key in FILTERS if key != "current"]
        for sort in SORTS:
            for desc in (False, True):
                arrow = "desc" if desc else "asc"
                views.append(
                    (
                        f"all by {sort} {arrow}",
                        LicenceFilter(show="all", sort=sort, descending=desc),
                    )
                )
        word = _search_word()
        views.append((f"search '{word}', all", LicenceFilter(show="all", text=word)))
        return _figures(
            d,
            f"licences {n:,}",
            views,
            ("all, last page", LicenceFilter(show="all")),
            ("one licence's view", get_licence, (d.db, last_id - 10)),
        )
    finally:
        d.close()


def run_permits(path: Path, impoundments: int) -> list[Result]:
    """The Permits list: current (its default) with its count, each filter, each kind,
    each sort both ways, a search, the last page of all permits, one permit's view."""
    from fieldops.services.permits.listing import FILTERS, KINDS, SORTS, PermitFilter
    from fieldops.services.permits.records import load_permit
    from ui.permits.list_model import PermitTableModel

    d = _open(path, impoundments, PermitTableModel)
    try:
        n, last_id = d.raw.execute("SELECT count(*), max(id) FROM permit").fetchone()
        views: list[tuple[str, Any]] = [("current, count and first page", PermitFilter())]
        views += [(key, PermitFilter(status=key)) for key in FILTERS if key != "current"]
        views += [(f"all, {k}", PermitFilter(status="all", kind=k)) for k in KINDS if k != "all"]
        for sort in SORTS:
            for desc in (False, True):
                arrow = "desc" if desc else "asc"
                views.append(
                    (
                        f"all by {sort} {arrow}",
                        PermitFilter(status="all", sort=sort, descending=desc),
                    )
                )
        word = _search_word()
        views.append((f"search '{word}', all", PermitFilter(status="all", text=word)))
        return _figures(
            d,
            f"permits {n:,}",
            views,
            ("all, last page", PermitFilter(status="all")),
            ("one permit's view", load_permit, (d.db, max(1, last_id - 10), d.ctx.profile)),
        )
    finally:
        d.close()


if __name__ == "__main__":
    import sys

    suites = {"calls": run_calls, "licences": run_licences, "permits": run_permits}
    for r in suites[sys.argv[1]](Path(sys.argv[2]), int(sys.argv[3])):
        print(r.line(), flush=True)
