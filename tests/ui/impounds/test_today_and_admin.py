"""Today's pound items, and the council fee schedules in Administration."""

from __future__ import annotations

from datetime import date

import pytest
from PySide6.QtCore import Qt
from support import local

from fieldops.services.fee_schedules import fee_schedules
from fieldops.services.payments import quote
from ui.admin.page import AdministrationWidget
from ui.today.page import TodayWidget


@pytest.fixture
def due(pound):
    p = pound
    p.ends_today = p.impound(
        p.animal("Rex", breed="Beagle"), local(2026, 11, 20, 10, 0), kennel="K-1"
    )
    p.ends_tomorrow = p.impound(p.animal("Luna"), local(2026, 11, 21, 10, 0), kennel="K-2")
    p.past = p.impound(p.animal("Penny", species="cat"), local(2026, 11, 12, 9, 30), kennel="")
    p.later = p.impound(p.animal("Zed"), local(2026, 11, 26, 9, 30))  # nothing due yet
    return p


@pytest.fixture
def today_page(qtbot, ctx, due, wait_idle):
    page = TodayWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    wait_idle()
    return page


def test_today_lists_the_pounds_items_in_working_order(today_page, due, rows_of, qtmodeltester):
    assert today_page.heading.text() == "Today — Fri 27 Nov 2026"
    assert rows_of(today_page.view, 3) == [
        ("Hold ends today", str(due.ends_today.id), "Fri 27 Nov 2026"),
        ("Hold ends tomorrow", str(due.ends_tomorrow.id), "Sat 28 Nov 2026"),
        ("Held past the hold without disposition", str(due.past.id), "Thu 19 Nov 2026"),
    ]
    assert rows_of(today_page.view)[2][3] == (
        f"#{due.past.id} Penny (cat): hold ended 19 Nov 2026, 8 days ago, no disposition"
    )
    assert today_page.summary.text() == (
        "Hold ends today: 1 · Hold ends tomorrow: 1 · Held past the hold without disposition: 1"
    )
    qtmodeltester.check(today_page.model)


def test_double_click_opens_the_impoundment_and_a_disposition_clears_the_item(
    qtbot, today_page, due, wait_idle, wait_dialog
):
    view = today_page.view
    index = view.model().index(2, 0)
    view.scrollTo(index)
    rect = view.visualRect(index)
    # QTest's double click is only the second press: the first comes on its own.
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    record = wait_dialog("ImpoundmentDialog")
    wait_idle()
    assert record.impoundment_id() == due.past.id
    dialog = record.open_disposition("transferred")
    qtbot.keyClicks(dialog.transfer_to, "Dane County Humane Society")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    wait_idle()
    wait_idle()
    assert [r.impoundment_id for r in today_page.model._rows] == [
        due.ends_today.id,
        due.ends_tomorrow.id,
    ]
    record.close()


def test_nothing_due(qtbot, ctx, wait_idle):
    page = TodayWidget(ctx)
    qtbot.addWidget(page)
    wait_idle()
    # Issues 9, 10, 15 and 16: every module with due items is named, in Today's order.
    assert page.summary.text() == (
        "Nothing is due today in the pound, bite quarantines, vicious animals, field calls, "
        "dog licences or permits."
    )
    assert not page.open_button.isEnabled()


@pytest.fixture
def admin(qtbot, supervisor_ctx, wait_idle):
    page = AdministrationWidget(supervisor_ctx)
    qtbot.addWidget(page)
    page.show()
    qtbot.waitUntil(lambda: supervisor_ctx.tasks.pending_count() == 0)
    yield page.fee_schedules
    del page  # held until the test ends: the schedules widget lives inside it


def test_a_supervisor_enters_a_fee_schedule(
    qtbot, admin, supervisor_ctx, sqlite_db, pound, rows_of, qtmodeltester
):
    assert [r[:4] for r in rows_of(admin.view)] == [
        ("City profile (default)", "Before any resolution", "Dog", "$40.00"),
        ("City profile (default)", "Before any resolution", "Cat", "$30.00"),
        ("City profile (default)", "Before any resolution", "Other", "$20.00"),
    ]
    assert admin.amounts["dog.impound"].text() == "40.00"  # starts from the fees in force
    qtbot.keyClicks(admin.resolution, "2026-R-114")
    admin.effective_on.setDate(date(2026, 11, 1))
    admin.amounts["dog.impound"].setText("45.00")
    admin.amounts["cat.adoption"].setText("55")
    qtbot.mouseClick(admin.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: supervisor_ctx.tasks.pending_count() == 0)
    qtbot.waitUntil(lambda: admin.model.rowCount() == 6)
    assert admin.banner.text() == (
        "Resolution 2026-R-114 saved: its fees apply to animals impounded from Sun 1 Nov 2026."
    )
    assert rows_of(admin.view, 6)[0] == (
        "2026-R-114",
        "Sun 1 Nov 2026",
        "Dog",
        "$45.00",
        "$15.00",
        "$75.00",
    )
    assert rows_of(admin.view, 6)[1][5] == "$55.00"
    assert fee_schedules(sqlite_db)[0].resolution == "2026-R-114"
    # A dog impounded after it takes effect is quoted the new fee.
    view = pound.impound(pound.animal("Rex"), local(2026, 11, 26, 9, 0))
    fees = quote(sqlite_db, view.id, local(2026, 11, 27, 9, 0), True, pound.profile)
    assert fees.lines[0].amount == 45
    qtmodeltester.check(admin.model)


def test_a_bad_amount_is_shown_beside_its_field(qtbot, admin, supervisor_ctx):
    admin.amounts["cat.boarding_per_day"].setText("twelve")
    qtbot.mouseClick(admin.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: supervisor_ctx.tasks.pending_count() == 0)
    assert admin.fields.error_text("resolution") == "Resolution number is required."
    assert admin.fields.error_text("cat.boarding_per_day") == (
        "Enter an amount in dollars and cents, e.g. 40.00."
    )
    assert admin.fields.is_marked("cat.boarding_per_day")
    assert admin.banner.text().startswith("Nothing was saved")


def test_others_read_the_schedules_only(qtbot, ctx, wait_idle, rows_of):
    page = AdministrationWidget(ctx)
    qtbot.addWidget(page)
    page.show()
    wait_idle()
    schedules = page.fee_schedules
    assert schedules.form.isHidden()
    assert not schedules.read_only_note.isHidden()
    assert len(rows_of(schedules.view)) == 3


def test_a_due_date_and_time_is_never_cut_short(today_page, ctx):
    # Deliveries and notice deadlines are due at an instant: "Wed 30 Sep 2026 12:45 PM CDT"
    # must show whole at the default width, whatever the month, weekday or hour.
    from datetime import UTC, datetime, timedelta

    from ui.common.text import when

    metrics = today_page.view.fontMetrics()
    width = today_page.view.columnWidth(2)
    instant = datetime(2026, 1, 1, 17, 45, tzinfo=UTC)
    widest = max(
        (when(ctx, instant + timedelta(days=d, hours=h)) for d in range(0, 366, 3) for h in (0, 7)),
        key=metrics.horizontalAdvance,
    )
    assert metrics.horizontalAdvance(widest) + 8 <= width, widest
