"""One record's view reads each of its rows once (issue 14: a view cost 5-10 ms where its
SQL took 0.2 ms; a row read twice was part of it), and shows the same record."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta

from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import event

from fieldops.services import quarantine as qs
from fieldops.services.context import now
from fieldops.services.impounds import get_impoundment


@contextmanager
def _selects(db):
    sent: list[str] = []

    def seen(_conn, _cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT"):
            sent.append(" ".join(statement.split()))

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        yield sent
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)


def test_an_impoundments_view_reads_its_dispositions_once(db, rex, impound, profile):
    imp = impound(rex.id, now() - timedelta(days=2))
    with _selects(db) as sent:
        view = get_impoundment(db, imp.id, profile)
    assert view.id == imp.id and view.disposition is None
    assert len([s for s in sent if " FROM disposition " in f"{s} "]) == 1


def test_a_quarantines_view_reads_its_corrections_and_quarantine_once_for_its_bite(
    db, officer, supervisor, rex
):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    r = qs.report_bite(
        db, officer, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    )
    with _selects(db) as sent:
        view = qs.get_quarantine(db, r.quarantine_id, PROFILE, local_today())
    assert view.bite.quarantine_id == r.quarantine_id
    assert not [s for s in sent if "FROM quarantine WHERE quarantine.bite_report_id" in s]
    # The view's plan and the bite's words read the corrections once (the fees read theirs).
    assert len([s for s in sent if "FROM quarantine_correction" in s]) <= 2
