"""The quarantine, vicious and permit lists read as the impounds list does (issue 14): a page
in one unit of work on a bare connection (one snapshot, one BEGIN), its statements
cancellable, so a list the user has moved past stops instead of holding a core."""

from __future__ import annotations

import pytest
from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import event

from fieldops.db.cancel import Cancelled, CancelToken, running
from fieldops.services import quarantine as qs
from fieldops.services.quarantine.listing import QuarantineFilter


@pytest.fixture
def begins(db):
    """How many units of work began on the database."""
    seen: list[object] = []

    def on_begin(conn):
        seen.append(conn)

    event.listen(db.engine, "begin", on_begin)
    yield seen
    event.remove(db.engine, "begin", on_begin)


def _cancelled_token() -> CancelToken:
    token = CancelToken()
    token.cancel()
    return token


def test_a_quarantine_page_with_its_day_labels_is_one_snapshot(
    db, officer, supervisor, rex, begins
):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    r = qs.report_bite(
        db, officer, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    begins.clear()
    page = qs.quarantine_page(db, QuarantineFilter(show="open"), local_today(), PROFILE, 0, 100)
    assert [row.id for row in page.rows] == [r.quarantine_id]
    assert page.rows[0].day.startswith("day ")  # the rules' count, read in the same snapshot
    assert len(begins) == 1


def test_a_superseded_quarantine_list_stops(db):
    f = QuarantineFilter(show="all")
    with running(_cancelled_token()), pytest.raises(Cancelled):
        qs.quarantine_page(db, f, local_today(), PROFILE, 0, 100)
    with running(_cancelled_token()), pytest.raises(Cancelled):
        qs.count_quarantines(db, f, local_today())
