"""A list's "#" column shows a city's record numbers whole, to six digits (issue 14: at
100,000 impoundments the Impounds list cut 99,412 to "99…")."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView

from ui.app import build_main_window
from ui.areas import AREAS
from ui.common.table_models import RECORD_NUMBER


def test_every_list_s_number_column_shows_six_digits(qtbot, sqlite_db, supervisor, errors):
    w = build_main_window(sqlite_db, supervisor, errors=errors)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    seen = []
    for area in AREAS:
        page = w.show_area(area.key)
        qtbot.wait(10)
        for view in page.findChildren(QTableView):
            model = view.model()
            if model is None:
                continue
            for i in range(model.columnCount()):
                if model.headerData(i, _horizontal()) == "#":
                    need = view.fontMetrics().horizontalAdvance(RECORD_NUMBER)
                    seen.append((area.key, view.horizontalHeader().sectionSize(i) >= need))
    w.ctx.shutdown()
    lists = {key for key, _ in seen}
    assert {"impounds", "quarantines", "vicious", "calls", "licences"} <= lists, lists
    assert [key for key, whole in seen if not whole] == []


def _horizontal():
    from PySide6.QtCore import Qt

    return Qt.Orientation.Horizontal


def test_the_animals_list_shows_a_two_word_colour_and_a_tag_whole(window):
    """A licence tag with its year ("D-2016-0000011") and "black and white" were cut."""
    view = window.current_page().animals.view
    model, header = view.model(), view.horizontalHeader()
    titles = {model.headerData(i, _horizontal()): i for i in range(model.columnCount())}
    for title, text in (("Colour", "black and white"), ("Licence", "D-2016-0000011")):
        need = view.fontMetrics().horizontalAdvance(text) + 8  # the cell's own margins
        assert header.sectionSize(titles[title]) >= need, title
