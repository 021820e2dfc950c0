"""The app shell: navigation over the areas, placeholders, status bar, shortcuts."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from ui.account import may_create
from ui.app import build_main_window
from ui.areas import AREAS, Area, PlaceholderWidget
from ui.common.pages import Creates, HasPageActions, Refreshable, Searchable
from ui.people.page import PeopleAndAnimalsWidget

AREA_TITLES = [
    "Today",
    "Impounds",
    "Quarantines",
    "Vicious animals",
    "Calls",
    "Licences and permits",
    "People and animals",
    "Reports",
    "Administration",
]


def nav_titles(window) -> list[str]:
    nav = window.navigation
    return [nav.item(i).text() for i in range(nav.count())]


def test_title_size_and_status_bar_say_where_and_who(window, sqlite_db):
    assert window.windowTitle() == f"FieldOps — City Animal Control — {sqlite_db.description}"
    assert (window.width(), window.height()) == (1280, 800)
    assert window.database_label.text() == f"Database: {sqlite_db.description}"
    assert window.user_label.text() == "Signed in as Opal Operator (opal), operator"
    assert window.backup_label.text() == ""


def test_navigation_lists_every_area_and_opens_on_the_first_real_page(
    qtbot, sqlite_db, operator, errors
):
    w = build_main_window(sqlite_db, operator, errors=errors)
    qtbot.addWidget(w)
    assert nav_titles(w) == AREA_TITLES
    assert w.current_area() == next(a.key for a in AREAS if a.page is not None)
    w.ctx.shutdown()


def test_the_navigation_shows_the_people_and_animals_page(window):
    window.navigation.setCurrentRow(AREA_TITLES.index("People and animals"))
    assert window.current_area() == "people"
    assert isinstance(window.current_page(), PeopleAndAnimalsWidget)


def test_areas_not_built_yet_say_what_will_come(qtbot, sqlite_db, operator, errors):
    areas = [
        Area("people", "People and animals", page=PeopleAndAnimalsWidget),
        Area("later", "Later", coming="Hold periods and their end dates."),
    ]
    w = build_main_window(sqlite_db, operator, errors=errors, areas=areas)
    qtbot.addWidget(w)
    w.navigation.setCurrentRow(1)
    page = w.current_page()
    assert isinstance(page, PlaceholderWidget)
    assert w.current_area() == "later"
    assert page.text.text() == "Coming in a later version. Hold periods and their end dates."
    assert not w.find_action.isEnabled()
    assert not w.new_action.isEnabled()
    w.ctx.shutdown()


def test_ctrl_digit_goes_to_an_area(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert window.current_area() == "quarantines"
    qtbot.keyClick(window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    assert window.current_area() == "calls"
    qtbot.keyClick(window, Qt.Key.Key_6, Qt.KeyboardModifier.ControlModifier)
    assert window.current_area() == "licences"
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    assert window.current_area() == "people"
    assert window.current_page().search.hasFocus()


def test_arrow_keys_in_the_navigation_switch_areas(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_F6)
    assert window.navigation.hasFocus()
    qtbot.keyClick(window.navigation, Qt.Key.Key_Down)
    assert window.current_area() == "reports"
    qtbot.keyClick(window.navigation, Qt.Key.Key_Home)
    assert window.current_area() == "today"


def test_page_actions_are_in_the_records_menu_only_while_their_page_shows(window):
    people = window.current_page()
    assert people.new_animal_action in window.records_menu.actions()
    assert window.new_action.text() == "&New person…"
    window.show_area("reports")
    assert people.new_animal_action not in window.records_menu.actions()
    window.show_area("people")
    assert people.new_animal_action in window.records_menu.actions()


def test_a_page_plugs_in_with_one_area_entry(qtbot, sqlite_db, operator, errors):
    areas = [
        Area("today", "Today", coming="Due items."),
        Area("impounds", "Impounds", page=lambda ctx: QLabel("intake desk")),
    ]
    w = build_main_window(sqlite_db, operator, errors=errors, areas=areas)
    qtbot.addWidget(w)
    assert nav_titles(w) == ["Today", "Impounds"]
    assert w.current_area() == "impounds"  # the first area with a real page
    assert w.current_page().text() == "intake desk"
    w.ctx.shutdown()


def test_the_status_bar_says_where_the_old_database_was_backed_up(
    qtbot, sqlite_db, operator, errors, tmp_path
):
    backup = tmp_path / "fieldops.backup-0001-20261130T090000Z.db"
    w = build_main_window(sqlite_db, operator, errors=errors, backup=Path(backup))
    qtbot.addWidget(w)
    assert str(backup) in w.backup_label.text()
    assert "upgraded" in w.backup_label.text()
    w.ctx.shutdown()


def test_the_status_bar_says_when_todays_backup_could_not_be_made(
    qtbot, sqlite_db, operator, errors
):
    problem = "the backup folder /media/usb does not exist"
    w = build_main_window(sqlite_db, operator, errors=errors, backup_problem=problem)
    qtbot.addWidget(w)
    assert not w.backup_label.isHidden()
    assert problem in w.backup_label.text() and "backup" in w.backup_label.text()
    w.ctx.shutdown()


def test_ctrl_q_closes_the_window(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible())


class _RefreshOnlyPage(QLabel):
    def __init__(self, ctx) -> None:
        super().__init__("a list")
        self.refreshed = 0

    def refresh(self) -> None:
        self.refreshed += 1


def test_a_records_action_is_enabled_only_for_a_page_that_offers_it(
    qtbot, sqlite_db, operator, errors
):
    areas = [Area("list", "List", page=_RefreshOnlyPage)]
    w = build_main_window(sqlite_db, operator, errors=errors, areas=areas)
    qtbot.addWidget(w)
    assert not w.find_action.isEnabled()
    assert not w.new_action.isEnabled()
    assert w.new_action.text() == "&New…"
    assert w.refresh_action.isEnabled()
    w.refresh_action.trigger()
    assert w.current_page().refreshed == 1
    w.ctx.shutdown()


def test_each_page_offers_the_records_actions_the_menu_enables(window):
    offered = {}
    for area in AREAS:
        if area.page is None:
            continue
        page = window.show_area(area.key)
        offers = (
            isinstance(page, Searchable),
            isinstance(page, Creates),
            isinstance(page, Refreshable),
            isinstance(page, HasPageActions),
        )
        menu = (
            window.find_action.isEnabled(),
            window.new_action.isEnabled(),
            window.refresh_action.isEnabled(),
        )
        # Issue 12: "New" also needs the role's permission (an operator reports no bites).
        may = may_create(window.ctx, area.key)
        assert menu == (offers[0], offers[1] and may, offers[2]), area.key
        offered[area.key] = offers
    assert offered["impounds"] == (True, True, True, False)
    assert offered["people"] == (True, True, True, True)
    assert offered["today"][2] and offered["admin"][2]
    assert not may_create(window.ctx, "quarantines") and may_create(window.ctx, "impounds")


def test_every_area_fits_a_1280_pixel_screen(qtbot, sqlite_db, supervisor, errors):
    w = build_main_window(sqlite_db, supervisor, errors=errors)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    wide = {}
    for area in AREAS:
        w.show_area(area.key)
        qtbot.wait(10)
        wide[area.key] = w.minimumSizeHint().width()
    assert {k: v for k, v in wide.items() if v > 1280} == {}
    w.ctx.shutdown()
