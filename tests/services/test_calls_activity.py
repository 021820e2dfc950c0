"""The field calls' part of the activity summary (issue 16): a hand-made set of calls,
complaints, petitions and citations, counted for the period and a year earlier, on SQLite
and PostgreSQL, and printed in the activity summary's PDF and CSV."""

from __future__ import annotations

import io
import re
from datetime import datetime, time, timedelta
from decimal import Decimal

from calls_support import call_input
from pypdf import PdfReader

from fieldops.modules import year_earlier
from fieldops.services.calls import citations as citing
from fieldops.services.calls.activity import activity
from fieldops.services.calls.complaints import (
    PetitionInput,
    file_petition,
    log_complaint,
    record_notification,
)
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.records import create_call
from fieldops.services.context import now
from fieldops.services.reports_run import produce

PETITION = {
    "petitioners": "Nora Neighbour, 14 Elm St, 608-555-0100",
    "animal": "Brown beagle at 12 Elm St",
    "violations": "Barking every night, 1-9 November",
    "reported_on": "2 and 6 November",
    "will_testify": True,
}


def test_the_calls_figures_count_the_period_and_a_year_earlier(
    db, officer, supervisor, owner, adopter, profile, monkeypatch
):
    tz = profile.timezone
    today = now().astimezone(tz).date()

    def ago(n: int):
        return today - timedelta(days=n)

    start, end = ago(20), today

    def at(day, minutes=0):
        return datetime.combine(day, time(10), tz) + timedelta(minutes=minutes)

    def call(day, kind, how, *, arrive=None, outcome=None, sent=True):
        v = create_call(db, officer, call_input(received_at=at(day), kind=kind, received_how=how))
        if sent:
            v = dispatch(db, officer, v.id, v.version, officer.username, sent_at=at(day, 2))
            d = v.dispatches[-1]
            if arrive is not None or outcome is not None:
                cleared = at(day, (arrive or 2) + 15) if outcome else None
                arrived = None if arrive is None else at(day, arrive)
                v = update_dispatch(
                    db, officer, d.id, d.version, DispatchUpdate(arrived, cleared, outcome)
                )
        return v

    # This period: four calls (three dispatched and arrived in 12, 30 and 20 minutes).
    call(ago(15), "at_large", "phone", arrive=12, outcome="impounded")
    barking = call(ago(14), "noise", "walk_in", arrive=30, outcome="warned")
    call(ago(12), "noise", "police", arrive=20, outcome="cited")
    call(ago(11), "bite", "phone", sent=False)
    call(ago(25), "noise", "phone")  # before the period: not counted
    # A year earlier: two calls dispatched, one arrived in 10 minutes; one before that period.
    call(year_earlier(ago(15)), "waste", "phone", arrive=10, outcome="no_violation")
    call(year_earlier(ago(3)), "noise", "phone")
    barking_then = call(year_earlier(ago(30)), "noise", "phone")
    # Complaints: one logged and notified now, one logged a year earlier (each on a call
    # received before it).
    v = log_complaint(
        db, officer, barking.id, complainant="Nora", alleged="Barking", logged_at=at(ago(14), 40)
    )
    complaint = v.complaints[0]
    record_notification(db, officer, complaint.id, complaint.version, how="mail", at=at(ago(13)))
    log_complaint(
        db,
        officer,
        barking_then.id,
        complainant="Nora",
        alleged="Barking",
        logged_at=at(year_earlier(ago(10))),
    )
    # Petitions: one refused (a part missing) and one accepted and sent to the police.
    lacking = PetitionInput(ago(13), **{**PETITION, "will_testify": False})
    file_petition(db, officer, complaint.id, lacking, record_refusal=True)
    complete = PetitionInput(ago(12), **PETITION, referred_to="police", referred_on=ago(12))
    file_petition(db, officer, complaint.id, complete)
    # Citations: two issued now (one paid today); one issued and paid a year earlier.
    issued = citing.cite(
        db,
        officer,
        citing.CitationInput(owner.id, "58-531", (ago(12), ago(11)), "Olly Officer"),
        profile,
    )
    citing.update_citation(
        db, officer, issued[1].id, issued[1].version, court_on=None, paid_on=today
    )
    then = datetime.combine(year_earlier(ago(9)), time(15), tz)
    monkeypatch.setattr(citing, "now", lambda: then)
    (old,) = citing.cite(
        db,
        officer,
        citing.CitationInput(adopter.id, "58-521", (year_earlier(ago(10)),), "Olly Officer"),
        profile,
    )
    monkeypatch.undo()
    citing.update_citation(
        db, officer, old.id, old.version, court_on=None, paid_on=year_earlier(ago(8))
    )

    sections = {
        s.title: {f.label: (f.value, f.year_earlier) for f in s.figures}
        for s in activity(db, start, end, profile)
    }
    glance = sections["Field calls: the period at a glance (calls by the day received)"]
    assert glance["Calls received"] == (4, 2)
    assert glance["Calls dispatched (an officer sent)"] == (3, 2)
    assert glance["Calls with an arrival recorded"] == (3, 1)
    assert glance["Mean minutes from the call to the first arrival"] == (20.7, 10.0)
    assert glance["Median minutes from the call to the first arrival (whole minutes)"] == (20, 10)
    kinds = sections["Calls received by kind"]
    assert kinds["Noise or habitual barking (58-531)"] == (2, 1)
    assert kinds["Animal at large (58-521)"] == (1, 0) and kinds["Animal waste (58-529)"] == (0, 1)
    how = sections["Calls received by how they came in"]
    assert how == {"Phone": (2, 2), "Walk-in": (1, 0), "Police referral": (1, 0)}
    outcomes = sections["Outcomes of the calls received"]
    assert outcomes["Impounded"] == (1, 0) and outcomes["Warned"] == (1, 0)
    assert outcomes["Cited"] == (1, 0) and outcomes["No violation"] == (0, 1)
    assert outcomes["No outcome recorded yet (open or dispatched)"] == (1, 1)
    complaints = sections["Complaints and petitions (58-534(a))"]
    assert complaints["Complaints logged"] == (1, 1)
    assert complaints["Owners notified of a complaint"] == (1, 0)
    assert complaints["Petitions received"] == (2, 0)
    assert complaints["Petitions refused (a required part missing)"] == (1, 0)
    assert complaints["Petitions accepted and referred"] == (1, 0)
    assert complaints["Referred to prosecution (police department)"] == (1, 0)
    assert complaints["Referred to zoning enforcement (community development)"] == (0, 0)
    cited = sections["Citations (58-534(b))"]
    fined = sum((c.forfeiture or Decimal(0) for c in issued), Decimal("0.00"))
    assert cited["Citations issued"] == (2, 1)
    assert cited["Of them warnings (no forfeiture)"] == (
        sum(c.forfeiture is None for c in issued),
        int(old.forfeiture is None),
    )
    assert cited["Forfeitures of the citations issued"] == (
        fined,
        old.forfeiture or Decimal("0.00"),
    )
    assert cited["Citations paid"] == (1, 1)
    assert cited["Forfeitures paid"][0] == issued[1].forfeiture > 0

    # The activity summary prints them, in its PDF and its CSV.
    out = produce(db, supervisor, "activity-summary", start, end, profile, audited=False).output
    rows = {(r[0], r[1]): r[2:] for r in out.table.rows}
    assert rows["Calls received by kind", "Noise or habitual barking (58-531)"] == ("2", "1")
    assert rows["Citations (58-534(b))", "Citations issued"] == ("2", "1")
    text = re.sub(
        r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(out.pdf)).pages)
    )
    assert "Outcomes of the calls received" in text and "Petitions received" in text
    assert "Mean minutes from the call to the first arrival" in text


def test_a_voided_citation_is_neither_counted_nor_summed(db, officer, supervisor, owner, profile):
    """Voided (issued to the wrong resident, say): no offence and nothing owed, as a voided
    licence is left out of the licence figures."""
    from fieldops.services.calls.citation_corrections import void_citation

    today = now().astimezone(profile.timezone).date()
    kept, wrong = (
        citing.cite(
            db,
            officer,
            citing.CitationInput(owner.id, "58-531", (today - timedelta(days=d),), "Olly Officer"),
            profile,
        )[0]
        for d in (5, 3)
    )
    void_citation(db, supervisor, wrong.id, wrong.version, "Issued to the wrong resident")
    start = today - timedelta(days=20)
    sections = {
        s.title: {f.label: f.value for f in s.figures} for s in activity(db, start, today, profile)
    }
    cited = sections["Citations (58-534(b))"]
    assert cited["Citations issued"] == 1
    assert cited["Forfeitures of the citations issued"] == (kept.forfeiture or Decimal("0.00"))
    assert cited["Of them warnings (no forfeiture)"] == int(kept.forfeiture is None)
    out = produce(db, supervisor, "activity-summary", start, today, profile, audited=False).output
    rows = {(r[0], r[1]): r[2] for r in out.table.rows}
    assert rows["Citations (58-534(b))", "Citations issued"] == "1"
