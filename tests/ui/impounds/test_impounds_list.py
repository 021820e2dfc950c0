"""The impounds list as the pound operator uses it: filter, search, sort by a header."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import QPoint, Qt
from support import local

from ui.impounds.list_model import ImpoundTableModel
from ui.impounds.page import ImpoundsWidget


@pytest.fixture
def impounds(pound):
    p = pound
    rex = p.animal("Rex", owner=p.ana, breed="Beagle", microchip="985112003456789")
    tom = p.animal("Tom", species="cat", owner=p.bo)
    zed = p.animal("Zed")
    old = p.animal("Olga", owner=p.bo)
    p.on_hold = p.impound(rex, local(2026, 11, 25, 10, 0), kennel="K-7")
    p.adoptable = p.impound(tom, local(2026, 11, 12, 9, 30), kennel="C-2")
    p.zed = p.impound(zed, local(2026, 11, 26, 8, 0), kennel="K-9")
    p.reclaimed = p.impound(old, local(2026, 11, 2, 11, 0), kennel="K-3")
    p.pay_all(p.reclaimed, local(2026, 11, 4, 12, 0), True, p.bo)
    p.vaccinate(old)
    p.release(
        p.reclaimed,
        p.ReleaseRequest(True, p.bo.id, at=local(2026, 11, 4, 12, 0), licence_receipt="L-9"),
    )
    return p


@pytest.fixture
def page(qtbot, ctx, impounds, wait_idle):
    widget = ImpoundsWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(1300, 600)
    widget.show()
    wait_idle()
    return widget


def column(page, title: str) -> list[str]:
    titles = [c.title for c in page.model.columns()]
    i = titles.index(title)
    return [page.model.index(r, i).data() for r in range(page.model.rowCount())]


def set_status(page, wait_idle, key: str) -> None:
    page.status.setCurrentIndex(page.status.findData(key))
    wait_idle()


def test_opens_on_animals_in_custody_newest_first_with_local_times(page, qtmodeltester):
    assert column(page, "#") == [str(page.model.row_object(r).id) for r in range(3)]
    assert column(page, "Animal") == ["Zed", "Rex, Beagle", "Tom"]
    assert column(page, "Status") == ["On hold", "On hold", "Adoptable"]
    assert column(page, "Impounded") == [
        "Thu 26 Nov 2026 8:00 AM CST",
        "Wed 25 Nov 2026 10:00 AM CST",
        "Thu 12 Nov 2026 9:30 AM CST",
    ]
    assert column(page, "Days held") == ["1", "2", "15"]
    assert column(page, "Hold ends") == ["Thu 3 Dec 2026", "Wed 2 Dec 2026", "Thu 19 Nov 2026"]
    assert column(page, "Owner") == ["(unknown)", "Ana Ruiz", "Bo Adler"]
    assert page.count.text() == "3 impoundments"
    qtmodeltester.check(page.model)


@pytest.mark.parametrize(
    ("status", "animals"),
    [
        ("adoptable", ["Tom"]),
        ("on_hold", ["Zed", "Rex, Beagle"]),
        ("released", ["Olga"]),
        ("all", ["Zed", "Rex, Beagle", "Tom", "Olga"]),
    ],
)
def test_status_filters(page, wait_idle, status, animals):
    set_status(page, wait_idle, status)
    assert column(page, "Animal") == animals


def test_a_released_animal_shows_its_disposition_and_days_held(page, wait_idle):
    set_status(page, wait_idle, "released")
    assert column(page, "Status") == ["Reclaimed by owner"]
    assert column(page, "Days held") == ["2"]


def test_species_and_date_range_filters(page, wait_idle):
    page.species.setCurrentIndex(page.species.findData("cat"))
    wait_idle()
    assert column(page, "Animal") == ["Tom"]
    page.species.setCurrentIndex(page.species.findData(""))
    page.set_date_range(date(2026, 11, 20), date(2026, 11, 25))
    wait_idle()
    assert column(page, "Animal") == ["Rex, Beagle"]
    assert page.current_filter().date_from == date(2026, 11, 20)


@pytest.mark.parametrize(
    ("text", "animals"),
    [
        ("ruiz", ["Rex, Beagle"]),  # the owner's name
        ("985112003456789", ["Rex, Beagle"]),  # a microchip
        ("K-9", ["Zed"]),  # a kennel
        ("tom", ["Tom"]),  # the animal's name
    ],
)
def test_search(qtbot, page, wait_idle, text, animals):
    qtbot.keyClicks(page.search, text)
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    wait_idle()
    assert column(page, "Animal") == animals


def titles(model) -> list[str]:
    return [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]


def click_header(qtbot, page, title: str) -> None:
    header = page.view.horizontalHeader()
    i = [c.title for c in page.model.columns()].index(title)
    x = header.sectionViewportPosition(i) + header.sectionSize(i) // 2
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
    )


def test_clicking_a_header_sorts_in_sql(qtbot, page, wait_idle):
    click_header(qtbot, page, "Animal")
    wait_idle()
    assert page.model.filter().sort == "animal"
    assert column(page, "Animal") == ["Rex, Beagle", "Tom", "Zed"]
    click_header(qtbot, page, "Animal")
    wait_idle()
    assert page.model.filter().descending
    assert column(page, "Animal") == ["Zed", "Tom", "Rex, Beagle"]
    click_header(qtbot, page, "Hold ends")
    wait_idle()
    assert page.model.filter().sort == "last_claim_day"
    assert column(page, "Animal")[0] == "Tom"


def test_a_header_without_a_sql_order_keeps_the_current_sort(qtbot, page, wait_idle):
    click_header(qtbot, page, "Status")
    wait_idle()
    header = page.view.horizontalHeader()
    assert page.model.filter().sort == "impounded_at"
    assert header.sortIndicatorSection() == titles(page.model).index("Impounded")


def test_the_model_sorts_without_a_proxy(qtbot, ctx, impounds, wait_idle, qtmodeltester):
    model = ImpoundTableModel(ctx)
    model.search("")
    wait_idle()
    owner = titles(model).index("Owner")
    model.sort(owner, Qt.SortOrder.AscendingOrder)
    wait_idle()
    owners = [model.index(r, owner).data() for r in range(model.rowCount())]
    assert owners == ["(unknown)", "Bo Adler", "Ana Ruiz"]  # family name order
    qtmodeltester.check(model)


def test_double_click_opens_the_impoundment(qtbot, page, wait_idle, wait_dialog):
    page.view.opened.emit(1)
    dialog = wait_dialog("ImpoundmentDialog")
    wait_idle()
    assert dialog.impoundment_id() == page.model.row_object(1).id
    dialog.close()


@pytest.fixture
def slow_count(monkeypatch):
    """The page of a search for "slowdog" takes minutes unless interrupted (a sleeping
    function per row on SQLite); ``started`` and ``ended`` tell where it is.

    The page, not the count: a page shorter than a page is every match, so its
    count is never waited for (and is stopped) once the page is in."""
    import threading
    import time
    from types import SimpleNamespace

    from sqlalchemy import text

    import ui.impounds.list_model as list_model
    from fieldops.db.cancel import cancellable

    state = SimpleNamespace(started=threading.Event(), ended=threading.Event())
    real_page = list_model.impounds_page

    def page(db, f, *args):
        if f.text != "slowdog":
            return real_page(db, f, *args)
        try:
            with db.read() as s, cancellable(s):

                def slow(x):
                    state.started.set()
                    time.sleep(0.005)
                    return x

                s.connection().connection.dbapi_connection.create_function("slow", 1, slow)
                s.execute(
                    text(
                        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                        "WHERE x < 100000) SELECT count(slow(x)) FROM c"
                    )
                ).scalar()
                return real_page(db, f, *args)
        finally:
            state.ended.set()

    monkeypatch.setattr(list_model, "impounds_page", page)
    return state


def test_typing_a_new_search_cancels_the_old_query(qtbot, page, wait_idle, slow_count):
    """A superseded list query is interrupted, not left holding a core (issue 7, item 8)."""
    qtbot.keyClicks(page.search, "slowdog")
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    assert slow_count.started.wait(30)
    assert page.count.text() == "Searching…"
    page.search.selectAll()
    qtbot.keyClicks(page.search, "tom")
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    qtbot.waitUntil(slow_count.ended.is_set, timeout=30_000)  # uninterrupted: ten minutes
    wait_idle()
    assert column(page, "Animal") == ["Tom"]
    assert page.count.text() == "1 impoundment"


def test_changing_a_filter_cancels_the_old_query(qtbot, page, wait_idle, slow_count):
    qtbot.keyClicks(page.search, "slowdog")
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    assert slow_count.started.wait(30)
    page.status.setCurrentIndex(page.status.findData("all"))
    qtbot.waitUntil(slow_count.ended.is_set, timeout=30_000)
    page.search.clear()
    qtbot.keyClick(page.search, Qt.Key.Key_Return)
    wait_idle()
    assert page.count.text() == "4 impoundments"


def test_closing_the_list_cancels_its_query(qtbot, ctx, impounds, wait_idle, slow_count):
    widget = ImpoundsWidget(ctx)
    widget.show()
    wait_idle()
    qtbot.keyClicks(widget.search, "slowdog")
    qtbot.keyClick(widget.search, Qt.Key.Key_Return)
    assert slow_count.started.wait(30)
    widget.close()
    widget.deleteLater()
    qtbot.waitUntil(slow_count.ended.is_set, timeout=30_000)
    assert ctx.tasks.pending_count() == 0


def test_the_rows_show_first_and_the_count_after(qtbot, ctx, impounds, wait_idle, monkeypatch):
    import threading

    from fieldops.services import impound_list
    from ui.common.table_models import PagedTableModel
    from ui.impounds import list_model

    gate = threading.Event()

    def slow_count(*args):  # a million impoundments: the count comes last
        gate.wait(5)
        return impound_list.count_impounds(*args)

    monkeypatch.setattr(list_model, "count_impounds", slow_count)
    # Pages of two: the first page is full, so more may follow and the count decides.
    paged_init = PagedTableModel.__init__

    def pages_of_two(self, *args, **kw):
        paged_init(self, *args, **{**kw, "page_size": 2})

    monkeypatch.setattr(PagedTableModel, "__init__", pages_of_two)
    page = ImpoundsWidget(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: not page.model.is_searching(), timeout=5000)
    assert page.model.is_counting()
    assert column(page, "Animal") == ["Zed", "Rex, Beagle"]  # shown, not waiting
    assert page.count.text() == "Counting…"
    gate.set()
    wait_idle()
    assert page.count.text() == "3 impoundments"
    assert page.model.rowCount() == 3


def test_a_list_shorter_than_a_page_shows_its_count_with_its_rows(
    qtbot, ctx, impounds, wait_idle, monkeypatch
):
    """Its first page is every match: the count's own query is not waited for (issue 14)."""
    import threading

    from fieldops.services import impound_list
    from ui.impounds import list_model

    gate = threading.Event()

    def slow_count(*args):
        gate.wait(5)
        return impound_list.count_impounds(*args)

    monkeypatch.setattr(list_model, "count_impounds", slow_count)
    page = ImpoundsWidget(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: not page.model.is_searching(), timeout=5000)
    assert not page.model.is_counting()
    assert column(page, "Animal") == ["Zed", "Rex, Beagle", "Tom"]
    assert page.count.text() == "3 impoundments"
    gate.set()
    wait_idle()
    assert page.count.text() == "3 impoundments"
