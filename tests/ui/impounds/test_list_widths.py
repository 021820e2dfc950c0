"""The impounds list at the default window size: status and animal read whole, the
kennel takes only what it needs, and "Days held" agrees with the boarding charged.

The animals are as long as the demo data's longest; a longer one is cut with an ellipsis
and reads whole in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt
from support import local

from ui.main_window import MainWindow

CELL_MARGIN = 8  # the style's text margins either side of a cell


def _titles(model) -> list[str]:
    return [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]


def test_status_and_animal_read_whole_at_the_default_window_size(qtbot, ctx, pound, wait_idle):
    p = pound
    # Shadow's hold ends on a Wednesday, the widest weekday ("Wed 18 Nov 2026").
    for name, breed, colour, day in (
        ("Cleo", "Domestic longhair", "black and white", 24),
        ("Bella", "German Shepherd", "black and tan", 24),
        ("Shadow", "Siamese mix", "tricolour", 11),
    ):
        a = p.animal(
            name,
            species="cat" if "Shepherd" not in breed else "dog",
            breed=breed,
            colour=colour,
            owner=p.ana,
        )
        p.impound(a, local(2026, 11, day, 9, 15), kennel="ISO-1")
    back = p.animal("Max", breed="Husky", colour="black and white", owner=p.bo)
    p.vaccinate(back)
    home = p.impound(back, local(2026, 11, 2, 11, 0))
    p.pay_all(home, local(2026, 11, 4, 12, 0), True, p.bo)
    p.release(
        home, p.ReleaseRequest(True, p.bo.id, at=local(2026, 11, 4, 12, 0), licence_receipt="L-9")
    )
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    page = window.show_area("impounds")
    page.status.setCurrentIndex(page.status.findData("all"))
    wait_idle()
    view, model = page.view, page.model
    assert model.rowCount() == 4
    fm = view.fontMetrics()
    titles = _titles(model)
    for title in ("Status", "Animal", "Impounded", "Hold ends"):
        col = titles.index(title)
        for r in range(model.rowCount()):
            text = model.index(r, col).data()
            assert fm.horizontalAdvance(text) + CELL_MARGIN <= view.columnWidth(col), text
    assert "Reclaimed by owner" in [
        model.index(r, titles.index("Status")).data() for r in range(model.rowCount())
    ]
    # The kennel code needs little; it does not take the rest of the row.
    assert view.columnWidth(titles.index("Kennel")) <= 80
    # Every column is on screen at once: no sideways scrolling at the default size.
    total = sum(view.columnWidth(i) for i in range(model.columnCount()))
    assert total <= view.viewport().width()


def test_days_held_is_the_boarding_days_charged(qtbot, ctx, pound, wait_idle):
    """Taken in today: one day of boarding is charged, so one day held, not 0."""
    from ui.impounds.page import ImpoundsWidget

    p = pound
    p.impound(p.animal("Zed"), local(2026, 11, 27, 8, 0))  # the fixture's today
    page = ImpoundsWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    wait_idle()
    col = _titles(page.model).index("Days held")
    assert page.model.index(0, col).data() == "1"
