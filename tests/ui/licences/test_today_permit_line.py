"""Today's permits expiring (issue 14): more than ``TODAY_EACH_UP_TO`` are one line with
the count, which opens the Permits tab on "expiring", listing those permits."""

from __future__ import annotations

from datetime import date

import pytest

from fieldops.services.people import PersonInput, create_person
from fieldops.services.permits import module as permit_module
from fieldops.services.permits.applying import ChickenInput, apply_chicken
from fieldops.services.permits.issuing import issue_permit


@pytest.fixture
def today() -> date:
    return date(2026, 12, 1)  # the year's permits all expire within 30 days


def test_the_permits_expiring_are_one_line_that_opens_their_list(
    qtbot, window, sqlite_db, officer, ctx, wait_idle, monkeypatch
):
    monkeypatch.setattr(permit_module, "TODAY_EACH_UP_TO", 2)  # three permits are many here
    issued = set()
    for n in range(3):
        holder = create_person(
            sqlite_db, officer, PersonInput(full_name=f"Holder {n}", address=f"{n} Coop Ln")
        )
        form = ChickenInput(date(2026, 3, 2), 2026, 3, 0, 60)
        v = apply_chicken(sqlite_db, officer, holder.id, holder.address, form, ctx.profile)
        issued.add(issue_permit(sqlite_db, officer, v.id, date(2026, 3, 3), ctx.profile).id)
    window.show_area("today")
    page = window.current_page()
    page.refresh()
    wait_idle()
    rows = [page.model.row_object(i) for i in range(page.model.rowCount())]
    lines = [i for i in rows if i.module == "permit"]
    assert [(i.category, i.count) for i in lines] == [("permit.expiring", 3)]  # not 3 lines
    assert "Permit expiring: 3" in page.summary.text()
    page.view.setCurrentIndex(page.model.index(rows.index(lines[0]), 0))
    page.open_button.click()
    wait_idle()
    assert window.current_area() == "licences"
    tab = window.current_page().permits
    assert window.current_page().tabs.currentWidget() is tab
    assert tab.status.currentData() == "expiring"
    assert {tab.model.row_object(i).id for i in range(tab.model.rowCount())} == issued
