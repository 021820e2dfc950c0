"""Call actions (issue 16): a citation voided or corrected, a follow-up done, a record of
another module linked to its call; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest
from calls_support import closed_with_follow_up
from sqlalchemy import func, select, text

from fieldops.db.models import AuditEvent, CallCitation
from fieldops.errors import PermissionDeniedError, StaleRecordError, UserError, ValidationError
from fieldops.modules import due_items, place_records
from fieldops.rules import penalty_for
from fieldops.services.calls.citation_corrections import (
    CitationCorrection,
    correct_citation,
    void_citation,
)
from fieldops.services.calls.citations import CitationInput, cite, quote
from fieldops.services.calls.day import officer_day
from fieldops.services.calls.dispatching import DispatchUpdate, dispatch, update_dispatch
from fieldops.services.calls.followups import record_follow_up
from fieldops.services.calls.links import call_actions, link_record
from fieldops.services.calls.records import CallInput, create_call, get_call, open_recheck
from fieldops.services.history import record_history


def _today(profile):
    return datetime.now(profile.timezone).date()


def _cite(db, actor, person_id, profile, *days, section="58-531"):
    return cite(db, actor, CitationInput(person_id, section, days, "Off. Lee"), profile)


def _events(db, action):
    with db.read() as s:
        return s.scalar(
            select(func.count()).select_from(AuditEvent).where(AuditEvent.action == action)
        )


def test_a_voided_citation_stays_on_record_and_no_longer_climbs_the_ladder(
    db, officer, supervisor, owner, profile
):
    today = _today(profile)
    (first,) = _cite(db, officer, owner.id, profile, today - timedelta(days=10))
    assert first.offence_number == 1
    with pytest.raises(PermissionDeniedError):
        void_citation(db, officer, first.id, first.version, "Issued to the wrong resident")
    with pytest.raises(ValidationError) as e:
        void_citation(db, supervisor, first.id, first.version, " ")
    assert "reason" in e.value.by_field()
    voided = void_citation(db, supervisor, first.id, first.version, "Issued to the wrong resident")
    assert voided.voided and voided.voided_by == supervisor.username
    with db.read() as s:  # still on record
        assert s.get(CallCitation, first.id) is not None
    (second,) = _cite(db, officer, owner.id, profile, today - timedelta(days=2))
    assert second.offence_number == 1  # the voided one is no earlier offence
    assert second.forfeiture == penalty_for("58-531", 1, profile).forfeiture
    assert quote(db, owner.id, "58-531", (today,), profile)[0].offence_number == 2
    with pytest.raises(ValidationError) as e:  # its day stays taken by the voided record
        _cite(db, officer, owner.id, profile, today - timedelta(days=10))
    assert "voided" in e.value.by_field()["days"]
    with pytest.raises(UserError):  # nothing more is recorded on a voided citation
        void_citation(db, supervisor, first.id, voided.version, "again")
    words = [h.sentence for h in record_history(db, "call_citation", first.id, profile.timezone)]
    assert any("wrong resident" in w for w in words)
    with db.read() as s:  # the address history, through the seam
        seen = {
            r.record_id: r.summary
            for r in place_records(s, (owner.id,), "")
            if r.kind == "citation"
        }
    assert "VOID" in seen[first.id] and "VOID" not in seen[second.id]


def test_a_void_that_would_renumber_a_later_citation_is_refused(
    db, officer, supervisor, owner, profile
):
    today = _today(profile)
    (a,) = _cite(db, officer, owner.id, profile, today - timedelta(days=9))
    (b,) = _cite(db, officer, owner.id, profile, today - timedelta(days=4))
    with pytest.raises(ValidationError) as e:
        void_citation(db, supervisor, a.id, a.version, "Mistake")
    assert f"#{b.id}" in e.value.by_field()["reason"]
    with db.read() as s:
        assert s.get(CallCitation, a.id).voided_at is None


def test_voiding_removes_an_unpaid_citation_from_today(db, officer, supervisor, owner, profile):
    today = _today(profile)
    (warn,) = _cite(db, officer, owner.id, profile, today - timedelta(days=30))
    (owed,) = cite(
        db,
        officer,
        CitationInput(
            owner.id, "58-531", (today - timedelta(days=20),), "X", court_on=today - timedelta(2)
        ),
        profile,
    )
    assert owed.forfeiture  # the second offence costs money under every shipped ladder
    cats = [(i.category, i.record_id) for i in due_items(db, today, profile)]
    assert ("call.citation_unpaid", owed.id) in cats
    void_citation(db, supervisor, owed.id, owed.version, "Dismissed by the court")
    cats = [(i.category, i.record_id) for i in due_items(db, today, profile)]
    assert ("call.citation_unpaid", owed.id) not in cats
    assert warn.offence_number == 1


def test_a_correction_recomputes_the_forfeiture_audits_before_and_after(
    db, officer, supervisor, owner, profile
):
    today = _today(profile)
    (a,) = _cite(db, officer, owner.id, profile, today - timedelta(days=9))
    (b,) = _cite(db, officer, owner.id, profile, today - timedelta(days=4), section="58-529")
    assert b.offence_number == 1
    fix = CitationCorrection(owner.id, "58-531", b.offence_on, b.address, "Barking, not waste")
    with pytest.raises(ValidationError) as e:  # a reason is required
        correct_citation(db, officer, b.id, b.version, fix, " ", profile)
    assert "reason" in e.value.by_field()
    fixed = correct_citation(db, officer, b.id, b.version, fix, "Wrong section written", profile)
    assert (fixed.section, fixed.offence_number) == ("58-531", 2)
    assert fixed.forfeiture == penalty_for("58-531", 2, profile).forfeiture
    assert fixed.penalty_why == penalty_for("58-531", 2, profile).why
    with db.read() as s:
        e = s.scalars(select(AuditEvent).where(AuditEvent.action == "correct_citation")).one()
        assert e.before["section"] == "58-529" and e.after["section"] == "58-531"
        assert e.before["offence_number"] == 1 and e.after["offence_number"] == 2
        assert e.reason == "Wrong section written"
    with pytest.raises(StaleRecordError):  # the form opened before the correction
        correct_citation(db, officer, b.id, b.version, fix, "again", profile)
    n = _events(db, "correct_citation")
    same = correct_citation(db, officer, b.id, fixed.version, fix, "nothing", profile)
    assert same.version == fixed.version and _events(db, "correct_citation") == n
    # Moving the earlier one past the later one would renumber an issued citation.
    move = CitationCorrection(owner.id, "58-531", today - timedelta(days=1), a.address, "")
    with pytest.raises(ValidationError) as e:
        correct_citation(db, supervisor, a.id, a.version, move, "Wrong day", profile)
    assert f"#{b.id}" in e.value.by_field()["offence_on"]
    words = [h.sentence for h in record_history(db, "call_citation", b.id, profile.timezone)]
    assert any("Wrong section written" in w and "58-529" in w for w in words)


def test_who_may_correct_what(db, officer, supervisor, owner, adopter, profile):
    today = _today(profile)
    (c,) = _cite(db, supervisor, owner.id, profile, today - timedelta(days=3))
    other = CitationCorrection(adopter.id, c.section, c.offence_on, c.address, c.description)
    with pytest.raises(PermissionDeniedError):  # another's citation: its person needs a supervisor
        correct_citation(db, officer, c.id, c.version, other, "Wrong person", profile)
    words = CitationCorrection(owner.id, c.section, c.offence_on, "14 Elm St", "Seen barking")
    v = correct_citation(db, officer, c.id, c.version, words, "Address misheard", profile)
    assert (v.address, v.description) == ("14 Elm St", "Seen barking")
    v = correct_citation(db, supervisor, v.id, v.version, other, "Wrong person", profile)
    assert v.person_id == adopter.id and v.offence_number == 1
    (mine,) = _cite(db, officer, owner.id, profile, today - timedelta(days=5))
    moved = CitationCorrection(owner.id, mine.section, today - timedelta(days=6), "", "")
    assert correct_citation(db, officer, mine.id, mine.version, moved, "Typo", profile).offence_on


def _closed_with_follow_up(db, officer, owner, profile):
    return closed_with_follow_up(db, officer, _today(profile), owner.id)


def test_follow_up_done_leaves_today_and_the_officers_day(db, officer, owner, profile):
    v = _closed_with_follow_up(db, officer, owner, profile)
    today = _today(profile)

    def due():
        return [(i.category, i.record_id) for i in due_items(db, today, profile)]

    assert ("call.follow_up_due", v.id) in due()
    assert [x.record_id for x in officer_day(db, officer.username, today, profile).follow_ups] == [
        v.id
    ]
    with pytest.raises(ValidationError) as e:
        record_follow_up(db, officer, v.id, v.version, done_at=None, done_by="nobody", note="")
    assert {"done_at", "note", "officer"} <= set(e.value.by_field())
    done = record_follow_up(
        db,
        officer,
        v.id,
        v.version,
        done_at=datetime.now(UTC) - timedelta(minutes=5),
        done_by=officer.username,
        note="Quiet now; owner keeps the dog in at night.",
        outcome="no_violation",
    )
    assert not [c for c in due() if c[0].startswith("call.") and c[1] == v.id]
    assert officer_day(db, officer.username, today, profile).follow_ups == ()
    acts = call_actions(db, v.id)
    assert not acts.follow_up_open and acts.follow_ups[0].outcome == "no_violation"
    with pytest.raises(UserError):
        record_follow_up(
            db, officer, v.id, done.version, done_at=datetime.now(UTC), done_by="olly", note="x"
        )
    words = [h.sentence for h in record_history(db, "field_call", v.id, profile.timezone)]
    assert any("Quiet now" in w and "No violation" in w for w in words)
    with pytest.raises(Exception, match="never changed"), db.write() as s:
        s.execute(text("UPDATE call_follow_up SET note = 'x'"))


def test_the_recheck_still_closes_a_follow_up(db, officer, owner, profile):
    v = _closed_with_follow_up(db, officer, owner, profile)
    open_recheck(db, officer, v.id)
    assert ("call.follow_up_due", v.id) not in [
        (i.category, i.record_id) for i in due_items(db, _today(profile), profile)
    ]
    assert not call_actions(db, v.id).follow_up_open


def test_a_link_is_written_once_and_never_changed(db, officer, owner):
    c = create_call(
        db,
        officer,
        CallInput(
            received_at=datetime.now(UTC) - timedelta(hours=1),
            received_how="phone",
            kind="bite",
            address="12 Elm St",
            caller_name="Nora",
        ),
    )
    with pytest.raises(ValidationError) as e:
        link_record(db, officer, c.id, "nowhere", "bite", 3)
    assert "module" in e.value.by_field()
    acts = link_record(db, officer, c.id, "quarantine", "bite", 3)
    again = link_record(db, officer, c.id, "quarantine", "bite", 3)
    assert [(x.module, x.kind, x.record_id) for x in again.links] == [("quarantine", "bite", 3)]
    assert acts.links == again.links and "bite #3" in acts.links[0].words
    assert get_call(db, c.id).version == c.version
    for sql in ("UPDATE call_link SET record_id = 4", "DELETE FROM call_link"):
        with pytest.raises(Exception, match="never changed"), db.write() as s:
            s.execute(text(sql))


def test_a_stranger_is_not_cited_by_correction(db, officer, supervisor, owner, profile):
    (c,) = _cite(db, officer, owner.id, profile, _today(profile) - timedelta(days=1))
    fix = CitationCorrection(10**6, c.section, c.offence_on)
    with pytest.raises(ValidationError) as e:
        correct_citation(db, supervisor, c.id, c.version, fix, "x", profile)
    assert "person_id" in e.value.by_field()


def test_a_follow_up_on_the_evening_dispatch_s_own_day_is_accepted(db, officer, owner, profile):
    # 21:30 local is already the next day in UTC: the follow-up date is a local day, and
    # the officer's own evening is not "before the dispatch".
    day = _today(profile) - timedelta(days=3)
    evening = datetime.combine(day, time(21, 30), profile.timezone).astimezone(UTC)
    assert evening.date() > day
    c = create_call(
        db,
        officer,
        CallInput(
            received_at=evening - timedelta(minutes=20),
            received_how="phone",
            kind="noise",
            address="12 Elm St",
            caller_name="Nora",
            owner_id=owner.id,
        ),
    )
    d = dispatch(db, officer, c.id, c.version, officer.username, evening).dispatches[0]
    with pytest.raises(ValidationError) as e:
        update_dispatch(
            db, officer, d.id, d.version, DispatchUpdate(follow_up_on=day - timedelta(1)), profile
        )
    assert "follow_up_on" in e.value.by_field()
    v = update_dispatch(db, officer, d.id, d.version, DispatchUpdate(follow_up_on=day), profile)
    assert v.dispatches[0].follow_up_on == day
