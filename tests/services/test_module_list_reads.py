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


def test_a_kept_permits_statement_answers_for_the_day_each_answer_is_asked_on(
    db, operator, profile
):
    """The statements are built once per filter; the day is a parameter, never built in."""
    from datetime import date

    from fieldops.services.people import PersonInput, create_person
    from fieldops.services.permits.applying import ChickenInput, apply_chicken
    from fieldops.services.permits.issuing import issue_permit
    from fieldops.services.permits.listing import PermitFilter, count_permits, permits_page

    holder = create_person(
        db, operator, PersonInput(full_name="Hana Novak", address="21 Maple Dr", city="Madison")
    )
    form = ChickenInput(
        applied_on=date(2026, 3, 2),
        year=2026,
        hens=4,
        roosters=0,
        setback_feet=60,
        hoa_exists=True,
        hoa_consent=True,
        hoa_consent_on=date(2026, 2, 20),
        residence_setback_feet=40,
        state_registered_on=date(2025, 6, 1),
    )
    p = apply_chicken(db, operator, holder.id, holder.address, form, profile)
    issue_permit(db, operator, p.id, date(2026, 3, 3), profile, version=p.version)
    for f, june, next_year in (
        (PermitFilter(status="current"), 1, 0),
        (PermitFilter(status="expired"), 0, 1),
        (PermitFilter(status="due"), 0, 1),
    ):
        for day, n in ((date(2026, 6, 1), june), (date(2027, 1, 2), next_year)):
            assert count_permits(db, f, day) == n, (f.status, day)
            assert len(permits_page(db, f, 0, 100, day).rows) == n, (f.status, day)


def test_superseded_vicious_and_permit_lists_stop(db):
    from datetime import date

    from fieldops.services.context import now
    from fieldops.services.permits.listing import PermitFilter, count_permits, permits_page
    from fieldops.services.vicious.listing import CaseFilter, cases_page, count_cases

    for ask in (
        lambda: cases_page(db, CaseFilter(status="all"), 0, 100, now()),
        lambda: count_cases(db, CaseFilter(status="all"), now()),
        lambda: permits_page(db, PermitFilter(status="all"), 0, 100, date(2026, 6, 1)),
        lambda: count_permits(db, PermitFilter(status="all"), date(2026, 6, 1)),
    ):
        with running(_cancelled_token()), pytest.raises(Cancelled):
            ask()
