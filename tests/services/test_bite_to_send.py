"""What a bite still has to send, kept (migration 0032): a referral not sent, a dead
animal's specimen not sent. Today reads the kept rows; after every write that can change
the answer they are their sources' own, on SQLite and PostgreSQL, and ``fieldops check``
reports a kept row that differs."""

from __future__ import annotations

import pytest
from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import select, text
from support import downgrade_to

from fieldops import modules
from fieldops.check import integrity_problems
from fieldops.db.migrate import current_revision, head_revision, upgrade
from fieldops.db.models import BiteToSend
from fieldops.services import quarantine as qs
from fieldops.services.quarantine.to_send import stale_bites_to_send, to_send_from_sources


def _kept(db) -> set[tuple[str, int]]:
    with db.read() as s:
        return {(k, b) for k, b in s.execute(select(BiteToSend.kind, BiteToSend.bite_report_id))}


def _from_sources(db) -> set[tuple[str, int]]:
    with db.read() as s:
        return {(str(k), int(b)) for k, b in s.execute(to_send_from_sources())}


def _assert_kept(db) -> set[tuple[str, int]]:
    kept = _kept(db)
    assert kept == _from_sources(db)
    with db.engine.connect() as conn:
        assert stale_bites_to_send(conn) == []
    return kept


def _today(db) -> set[tuple[str, int]]:
    return {
        (i.category, i.record_id)
        for i in modules.due_items(db, local_today(), PROFILE)
        if i.category in ("quarantine.referral_not_sent", "quarantine.specimen_not_sent")
    }


def _referred(db, officer) -> int:
    inp = bite_input(days_ago(3), species="other", animal_description="Bat", owner_unknown=True)
    return qs.report_bite(db, officer, inp, PROFILE).bite_report_id


def _quarantined(db, officer, clinic):
    inp = bite_input(
        days_ago(3),
        species="dog",
        animal_description="Brown terrier",
        owner_unknown=True,
        clinic_id=clinic.id,
    )
    return qs.report_bite(db, officer, inp, PROFILE)


def test_every_write_keeps_what_is_still_to_send(db, officer, clinic):
    assert _assert_kept(db) == set()
    bat = _referred(db, officer)
    assert _assert_kept(db) == {("referral_sent", bat)}
    assert _today(db) == {("quarantine.referral_not_sent", bat)}

    dog = _quarantined(db, officer, clinic)
    assert _assert_kept(db) == {("referral_sent", bat)}  # alive: nothing to send yet
    qs.record_death(db, officer, dog.quarantine_id, "euthanized", days_ago(1), PROFILE)
    assert _assert_kept(db) == {("referral_sent", bat), ("specimen_sent", dog.bite_report_id)}
    assert _today(db) == {
        ("quarantine.referral_not_sent", bat),
        ("quarantine.specimen_not_sent", dog.quarantine_id),
    }

    qs.record_referral_sent(db, officer, bat, days_ago(1), "Dr. Health Officer")
    assert _assert_kept(db) == {("specimen_sent", dog.bite_report_id)}
    qs.record_specimen_sent(db, officer, dog.quarantine_id, days_ago(0, 0), "Off. Lee", PROFILE)
    assert _assert_kept(db) == set()
    assert _today(db) == set()


def test_a_quarantine_changed_or_removed_around_the_services_is_kept_too(db, officer, clinic):
    """The triggers answer for any writer: a status set back, a quarantine deleted."""
    dog = _quarantined(db, officer, clinic)
    qs.record_death(db, officer, dog.quarantine_id, "died", days_ago(1), PROFILE)
    assert _assert_kept(db) == {("specimen_sent", dog.bite_report_id)}
    with db.engine.begin() as conn:
        conn.execute(
            text("UPDATE quarantine SET status = 'open' WHERE id = :q"), {"q": dog.quarantine_id}
        )
    assert _assert_kept(db) == set()
    with db.engine.begin() as conn:
        conn.execute(
            text("UPDATE quarantine SET status = 'died' WHERE id = :q"), {"q": dog.quarantine_id}
        )
    assert _assert_kept(db) == {("specimen_sent", dog.bite_report_id)}
    with db.engine.begin() as conn:
        conn.execute(
            text("DELETE FROM quarantine_exam WHERE quarantine_id = :q"), {"q": dog.quarantine_id}
        )
        conn.execute(text("DELETE FROM quarantine WHERE id = :q"), {"q": dog.quarantine_id})
    assert _assert_kept(db) == set()


@pytest.mark.parametrize(
    "tamper",
    [
        "DELETE FROM bite_to_send",
        "INSERT INTO bite_to_send (kind, bite_report_id) SELECT 'specimen_sent', id FROM bite_report",
    ],
    ids=["lost", "invented"],
)
def test_a_kept_row_that_differs_is_a_check_problem(db, officer, clinic, tamper):
    bat = _referred(db, officer)
    dog = _quarantined(db, officer, clinic)
    assert not [p for p in integrity_problems(db) if "still to send" in p]
    with db.engine.begin() as conn:
        conn.execute(text(tamper))
    problems = [p for p in integrity_problems(db) if "still to send" in p]
    named = bat if tamper.startswith("DELETE") else dog.bite_report_id
    assert len(problems) == 1 and f"#{named}" in problems[0], problems


def test_the_migration_keeps_what_was_already_to_send(db, officer, clinic):
    sent = _referred(db, officer)
    qs.record_referral_sent(db, officer, sent, days_ago(1), "Dr. Health Officer")
    bat = _referred(db, officer)
    dog = _quarantined(db, officer, clinic)
    qs.record_death(db, officer, dog.quarantine_id, "died", days_ago(1), PROFILE)
    downgrade_to(db, "0031")
    assert current_revision(db.engine) == "0031"
    upgrade(db.engine, db.url, backup_first=False)
    assert current_revision(db.engine) == head_revision()
    assert _assert_kept(db) == {("referral_sent", bat), ("specimen_sent", dog.bite_report_id)}
    # And its triggers are in place again.
    qs.record_referral_sent(db, officer, bat, days_ago(1), "Dr. Health Officer")
    assert _assert_kept(db) == {("specimen_sent", dog.bite_report_id)}
