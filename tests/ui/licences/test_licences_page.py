"""The Licences and permits area (issue 15): the list with its filters and search, the
issue form at the counter with its refusals beside the fields and its live quote, and
the record with a lost tag replaced."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt

from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.people import PersonInput, create_person
from ui.licences import opening


@pytest.fixture
def host(qtbot, window):
    return window


@pytest.fixture
def dogs(sqlite_db, operator, ctx):
    ana = create_person(sqlite_db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    rex, bo = (
        create_animal(
            sqlite_db,
            operator,
            AnimalInput(species="dog", name=n, owner_id=ana.id, altered=True, microchip=chip),
            today=date(2026, 1, 1),
        )
        for n, chip in (("Rex", "985000000000001"), ("Bo", ""))
    )
    old = issue_licence(
        sqlite_db,
        operator,
        LicenceInput(
            animal_id=rex.id,
            licence_year=2025,
            tag_number="25-7",
            applied_on=date(2025, 2, 1),
            rabies_vaccinated_on=date(2025, 1, 2),
        ),
        ctx.profile,
    )
    return ana, rex, bo, old


def rows(page):
    m = page.model
    return [m.row_object(i).tag for i in range(m.rowCount())]


def test_the_list_filters_and_searches(qtbot, window, dogs, wait_idle):
    window.show_area("licences")
    area = window.current_page()
    tab = area.licences
    wait_idle()
    assert rows(tab) == []  # nothing current for 2026
    tab.set_show("expired")
    wait_idle()
    assert rows(tab) == ["25-7"]
    tab.set_show("all")
    qtbot.keyClicks(tab.search, "985000000000001")
    qtbot.keyClick(tab.search, Qt.Key.Key_Return)
    wait_idle()
    assert rows(tab) == ["25-7"] and "1 licence" in tab.count.text()


def test_the_counter_form_refuses_beside_the_fields_then_issues(
    qtbot, window, ctx, dogs, wait_idle, wait_dialog, host
):
    _ana, _rex, bo, _old = dogs
    opening.new_licence(ctx, host, animal_id=bo.id)
    form = wait_dialog("IssueLicenceDialog")
    qtbot.keyClicks(form.tag, "25-7")
    form.year.setValue(2025)
    qtbot.waitUntil(lambda: bool(form.fields.error_text("rabies_vaccinated_on")), timeout=10_000)
    wait_idle()
    assert "rabies" in form.fields.error_text("rabies_vaccinated_on").lower()
    assert "25-7" in form.fields.error_text("tag_number")  # Rex's tag that year
    assert form.quote.text() == ""
    form.year.setValue(2026)
    form.tag.clear()
    qtbot.keyClicks(form.tag, "26-1")
    form.vaccinated.set_value(date(2026, 5, 1))
    qtbot.waitUntil(lambda: "Total" in form.quote.text(), timeout=10_000)
    wait_idle()
    assert form.fields.error_text("rabies_vaccinated_on") == ""
    issued = []
    form.saved.connect(issued.append)
    qtbot.mouseClick(form.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(issued), timeout=10_000)
    assert (issued[0].tag_number, issued[0].animal_id, issued[0].licence_year) == (
        "26-1",
        bo.id,
        2026,
    )
    wait_idle()


def test_a_lost_tag_is_replaced_from_the_record(
    qtbot, window, ctx, dogs, wait_idle, wait_dialog, host
):
    *_, old = dogs
    opening.open_licence(ctx, old.id, host)
    record = wait_dialog("LicenceDialog")
    wait_idle()
    assert record.replace_button.isEnabled() and not record.void_button.isEnabled()  # operator
    qtbot.mouseClick(record.replace_button, Qt.MouseButton.LeftButton)
    change = wait_dialog("LicenceChangeDialog")
    qtbot.keyClicks(change.tag, "25-8")
    done = []
    change.saved.connect(done.append)
    qtbot.mouseClick(change.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    wait_idle()
    assert record.view.tag_number == "25-8" and record.view.origin == "replacement"
    sentences = [h.sentence for h in record.history_model._rows]
    assert any("25-8" in s and "lost" in s for s in sentences)
    record.close()


def test_today_carries_a_licence_not_renewed_and_opens_it(
    qtbot, window, ctx, dogs, wait_idle, wait_dialog, rows_of
):
    *_, old = dogs
    window.show_area("today")
    today = window.current_page()
    today.refresh()  # built when the window opened, before the licence was written
    wait_idle()
    mine = [r for r in rows_of(today.view) if "25-7" in " ".join(r)]
    assert len(mine) == 1 and "late fee" in mine[0][0].lower()
    row = next(
        i for i in range(today.model.rowCount()) if today.model.row_object(i).module == "licence"
    )
    today._on_view_opened(row)
    record = wait_dialog("LicenceDialog")
    assert record.licence_id() == old.id
    wait_idle()
    record.close()


def test_the_permits_tab_plugs_in_when_the_permits_module_is_there(qtbot, ctx, monkeypatch):
    import sys
    import types

    from PySide6.QtWidgets import QLabel

    from ui.licences.page import LicencesAndPermitsWidget

    fake = types.ModuleType("ui.permits.page")
    fake.PermitsTab = lambda c: QLabel("permits")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ui.permits", types.ModuleType("ui.permits"))
    monkeypatch.setitem(sys.modules, "ui.permits.page", fake)
    page = LicencesAndPermitsWidget(ctx)
    qtbot.addWidget(page)
    assert [page.tabs.tabText(i) for i in range(page.tabs.count())] == [
        "Dog &licences",
        "&Permits",
    ]
    monkeypatch.setitem(sys.modules, "ui.permits.page", None)  # not installed
    alone = LicencesAndPermitsWidget(ctx)
    qtbot.addWidget(alone)
    assert alone.tabs.count() == 1
