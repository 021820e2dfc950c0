"""The calls module's record reports (issue 16): the call log and the citations register,
their rows (the CSV's), the PDF by text with a hostile name, and the keyset chunks."""

from __future__ import annotations

import io
import re
from datetime import datetime, time, timedelta
from decimal import Decimal

import pytest
from calls_support import call_input
from pypdf import PdfReader

from fieldops.errors import ValidationError
from fieldops.services.calls.citation_corrections import void_citation
from fieldops.services.calls.citations import CitationInput, cite, update_citation
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.records import create_call, open_recheck
from fieldops.services.calls.reports import CALL_COLUMNS, call_rows, citation_rows
from fieldops.services.context import now
from fieldops.services.people import PersonInput, create_person
from fieldops.services.reports_run import produce

HOSTILE = "O'Brien & <Sons>"


def _text(pdf: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))


def test_the_call_log_and_the_citations_register(db, officer, supervisor, operator, profile):
    tz = profile.timezone
    today = now().astimezone(tz).date()
    start = today - timedelta(days=10)

    def at(days_ago: int, minutes: int = 0) -> datetime:
        day = today - timedelta(days=days_ago)
        return datetime.combine(day, time(9), tz) + timedelta(minutes=minutes)

    def received(days_ago: int, address: str, **kw):
        return create_call(db, officer, call_input(address, received_at=at(days_ago), **kw))

    create_call(db, officer, call_input("1 Before St", received_at=at(11)))  # not in the period
    warned = received(5, f"{HOSTILE}, 12 Elm St", kind="at_large", priority=1)
    warned = dispatch(db, officer, warned.id, warned.version, officer.username, sent_at=at(5, 3))
    d = warned.dispatches[0]
    follow = today - timedelta(days=2)
    update_dispatch(
        db, officer, d.id, d.version, DispatchUpdate(at(5, 9), at(5, 30), "warned", follow)
    )
    again = open_recheck(db, officer, warned.id, received_at=at(2))
    sent = received(4, "3 Oak Ave")
    dispatch(db, officer, sent.id, sent.version, officer.username, sent_at=at(4, 1))

    out = produce(db, supervisor, "calls", start, today, profile, audited=False).output
    assert out.table.columns == CALL_COLUMNS
    rows = {r[0]: r for r in out.table.rows}
    assert list(rows) == [str(warned.id), str(again.id), str(sent.id)]  # number order
    assert rows[str(warned.id)][2:] == (
        "Animal at large (58-521)",
        f"{HOSTILE}, 12 Elm St",
        "Emergency",
        "Olly Officer",
        "Warned",
        f"{follow.strftime('%a')} {follow.day} {follow.strftime('%b %Y')}; "
        f"rechecked as call #{again.id}",
    )
    assert rows[str(sent.id)][5:7] == ("Olly Officer", "Dispatched, no outcome yet")
    assert rows[str(again.id)][5:] == ("", "Not dispatched", "")
    text = _text(out.pdf)
    assert "Call log" in text and "3 calls" in text and HOSTILE in text
    assert "1 Before St" not in text

    # The citations register: the person cited as typed, each day an offence on the ladder.
    person = create_person(db, operator, PersonInput(full_name=HOSTILE, address="5 Pine St"))
    cited = cite(
        db,
        officer,
        CitationInput(
            person.id,
            "58-531",
            (today - timedelta(days=3), today - timedelta(days=2)),
            "Olly Officer",
        ),
        profile,
    )
    paid = update_citation(
        db, officer, cited[1].id, cited[1].version, court_on=today, paid_on=today
    )
    (wrong,) = cite(
        db, officer, CitationInput(person.id, "58-529", (today,), "Olly Officer"), profile
    )
    void_citation(db, supervisor, wrong.id, wrong.version, "Written for the wrong house")
    reg = produce(db, supervisor, "citations", start, today, profile, audited=False).output
    assert [r[0] for r in reg.table.rows] == [str(c.id) for c in (*cited, wrong)]
    first, second, voided = reg.table.rows
    assert voided[6] == "VOID: Written for the wrong house"  # on record, counted in no total
    assert voided[4].endswith("(void)") or voided[4] == "Void"  # the column adds up to the total
    assert first[1:3] == (HOSTILE, "58-531") and "(offence 1)" in first[3]
    assert "(offence 2)" in second[3]
    assert first[6] == ("Unpaid" if cited[0].forfeiture else "")
    assert second[5] == second[6] != ""  # the court date and the day paid: today
    if paid.forfeiture:
        assert second[4].startswith(f"${paid.forfeiture:,.2f}")
    text = _text(reg.pdf)
    assert "Citations register" in text and HOSTILE in text and "Total: 3 citations" in text
    issued = sum((c.forfeiture or Decimal("0.00") for c in cited), start=Decimal("0.00"))
    with_void = issued + (wrong.forfeiture or Decimal("0.00"))
    assert f"${issued:,.2f}" in text and (with_void == issued or f"${with_void:,.2f}" not in text)

    # Read in chunks of one, the same lines; a bad period is refused on its field.
    with db.read() as s:
        conn = s.connection()
        assert list(call_rows(conn, start, today, profile, chunk=1)) == list(out.table.rows)
        lines = [c for c, _f, _p in citation_rows(conn, start, today, profile, chunk=1)]
        assert lines == list(reg.table.rows)
    with pytest.raises(ValidationError) as exc:
        produce(db, supervisor, "calls", today, start, profile, audited=False)
    assert [e.field for e in exc.value.errors] == ["period_end"]
