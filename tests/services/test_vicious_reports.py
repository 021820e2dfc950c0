"""The vicious-animal cases report and activity figures through the seam, on both databases:
the cases with something in the period, their notices, outcomes and next steps, in a fixed
number of statements; and the activity counts for the period beside a year earlier."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import event
from support import local
from vicious_cases import HOSTILE, declared, owner_and_dog

from fieldops.errors import ValidationError
from fieldops.modules import ReportRequest, activity_sections, report_kind
from fieldops.services.vicious.notices import NoticeInput, serve_notice
from fieldops.services.vicious.outcomes import OutcomeInput, StepInput, add_step, record_outcome


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


PRINTED = datetime(2026, 11, 30, 15, tzinfo=UTC)


def request(db, profile, start, end, **kw):
    return ReportRequest(db, start, end, profile, PRINTED, "Sgt. Kim", **kw)


@pytest.fixture
def cases(db, operator, profile, today):
    """Three cases in November 2026 (one refused, one posted then not complied with a court
    action, one served in person and removed), and one declared in November 2025."""
    dogs = [
        owner_and_dog(db, operator, today, owner_name=name, dog=dog)[1]
        for name, dog in (
            ("Ana Ruiz", "Rex"),
            (HOSTILE, "Rex <the dog>"),
            ("Bo Park", "Fido"),
            ("Cy Ode", "Old"),
        )
    ]
    refused = declared(
        db,
        operator,
        profile,
        dogs[0].id,
        applies={"provoked_by_person": "Hit first."},
        decided_at=local(2026, 11, 2, 9),
    )
    posted = declared(db, operator, profile, dogs[1].id, decided_at=local(2026, 11, 19, 9))
    serve_notice(
        db,
        operator,
        posted.id,
        NoticeInput("posted", local(2026, 11, 20, 15, 30), "Off. Vang", "Front door, 12 Elm St"),
        profile,
    )
    record_outcome(
        db, operator, posted.id, OutcomeInput("not_complied", local(2026, 11, 24, 9)), profile
    )
    add_step(
        db,
        operator,
        posted.id,
        StepInput("court_action", date(2026, 11, 27), "File for a destruction order."),
        profile,
    )
    removed = declared(db, operator, profile, dogs[2].id, decided_at=local(2026, 11, 9, 9))
    serve_notice(
        db,
        operator,
        removed.id,
        NoticeInput("in_person", local(2026, 11, 9, 14), "Off. Lee", "12 Elm St"),
        profile,
    )
    record_outcome(
        db,
        operator,
        removed.id,
        OutcomeInput(
            "removed", local(2026, 11, 10, 9), removed_to="Verona", confirmed_how="Police saw it."
        ),
        profile,
    )
    old = declared(db, operator, profile, dogs[3].id, decided_at=local(2025, 11, 12, 9))
    return refused, posted, removed, old


def test_the_report_is_found_by_name_and_lists_the_periods_cases(db, profile, cases):
    refused, posted, removed, _old = cases
    kind = report_kind("vicious-cases")
    assert kind is not None
    out = kind.build(request(db, profile, date(2026, 11, 1), date(2026, 11, 30)))
    table = out.table
    by_id = {int(r[0]): dict(zip(table.columns, r, strict=True)) for r in table.rows}
    assert set(by_id) == {refused.id, posted.id, removed.id}
    assert [int(r[0]) for r in table.rows] == [refused.id, removed.id, posted.id]  # by decision
    assert by_id[refused.id]["Decision"].startswith("Refused by Off. Dana Lee")
    assert "58-524(a)(2)b(iii)" in by_id[refused.id]["Decision"]
    notice = by_id[posted.id]["Notices: service and deadline"]
    assert "Posted" in notice and "Off. Vang" in notice
    assert "deadline Mon 23 Nov 2026 3:30 PM CST" in notice
    assert "did not comply" in by_id[posted.id]["Outcome"]
    steps = by_id[posted.id]["Next steps"]
    assert "58-524(c)(3)" in steps and "due Fri 27 Nov 2026" in steps
    late = [line for line in steps.split("\n") if "due Fri 27 Nov 2026" in line]
    assert late and late[0].startswith("OVERDUE: ")  # the mark leads the step it is about
    assert by_id[posted.id]["Owner and address"].startswith(HOSTILE)
    assert "Verona" in by_id[removed.id]["Outcome"]
    assert table.withheld == ()
    assert out.pdf.startswith(b"%PDF")


def test_a_case_declared_earlier_is_listed_for_what_happened_in_the_period(db, profile, cases):
    _refused, posted, _removed, _old = cases
    out = report_kind("vicious-cases").build(
        request(db, profile, date(2026, 11, 24), date(2026, 11, 24))
    )
    assert [int(r[0]) for r in out.table.rows] == [posted.id]  # its outcome, that day


def test_the_rows_take_the_same_statements_whatever_the_period(db, profile, cases):
    def statements(start, end):
        seen: list[str] = []

        def count(_conn, _cursor, statement, *_a):
            if statement.lstrip().upper().startswith(("SELECT", "WITH")):
                seen.append(statement)

        event.listen(db.engine, "before_cursor_execute", count)
        try:
            report_kind("vicious-cases").build(request(db, profile, start, end))
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
        return len(seen)

    few = statements(date(2026, 11, 24), date(2026, 11, 24))
    many = statements(date(2026, 1, 1), date(2026, 12, 1))
    assert few == many <= 4


def test_a_reversed_or_overlong_period_names_the_field(db, profile):
    kind = report_kind("vicious-cases")
    for start, end in (
        (date(2026, 11, 30), date(2026, 11, 1)),
        (date(2025, 1, 1), date(2026, 6, 1)),
    ):
        with pytest.raises(ValidationError) as exc:
            kind.build(request(db, profile, start, end))
        assert "period_end" in exc.value.by_field()


def test_the_activity_counts_the_period_beside_a_year_earlier(db, profile, cases):
    sections = activity_sections(db, date(2026, 11, 1), date(2026, 11, 30))
    figures = {
        (s.title.split(" (")[0], f.label): (f.value, f.year_earlier)
        for s in sections
        for f in s.figures
    }
    assert figures[("Vicious-animal declarations", "Declared vicious")] == (2, 1)
    assert figures[("Vicious-animal declarations", "Refused: an exception applies")] == (1, 0)
    notices = "Notices to destroy or remove"
    assert figures[(notices, "Served in person")] == (1, 0)
    assert figures[(notices, "Posted after the owner refused")] == (1, 0)
    compliance = "Compliance with notices"
    assert figures[(compliance, "Complied")] == (1, 0)
    assert figures[(compliance, "Complied: removed from the city")] == (1, 0)
    assert figures[(compliance, "Complied: destroyed")] == (0, 0)
    assert figures[(compliance, "Not complied")] == (1, 0)
    # A period with nothing in it counts zeros, not errors.
    # (The module's own sections: the pound's days held have no median in an empty period.)
    ours = {"Vicious-animal declarations", notices, compliance}
    empty = [
        s
        for s in activity_sections(db, date(2020, 3, 1), date(2020, 3, 31))
        if s.title.split(" (")[0] in ours
    ]
    assert len(empty) == 3
    assert all(f.value == 0 and f.year_earlier == 0 for s in empty for f in s.figures)
