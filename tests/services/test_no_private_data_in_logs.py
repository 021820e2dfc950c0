"""No names, phone numbers, addresses or passwords in log files, even with logging at DEBUG.

A full workflow (a person, an intake, a payment, a release, a bite report with
a victim's contact, and a bug whose database error quotes the row) runs with
every logger at DEBUG writing to a file; then the log files are searched for
what was planted.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from decimal import Decimal

import pytest
from quarantine_support import PROFILE, bite_input, days_ago
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from support import local

from fieldops import cli_guard
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.dispositions import ReleaseRequest, release
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person

NAME = "Quintessa Vorhaugen"
VICTIM = "Bartholomew Ziegenbalg"
PHONE = "608-555-8137"
VICTIM_PHONE = "415-555-2468"
ADDRESS = "7781 Wintergreen Hollow"
PASSWORD = "Tr0ub4dor&3-horse"
PLANTED = (NAME, VICTIM, PHONE, VICTIM_PHONE, ADDRESS, PASSWORD, "Vorhaugen", "Wintergreen")


@pytest.fixture
def debug_log(tmp_path):
    path = tmp_path / "debug.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setLevel(logging.DEBUG)
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()


@pytest.fixture
def operator(supervisor):
    """This walk crosses the pound's counter and the officer's bite work: a supervisor may do
    both (issue 12's roles; tests/services/test_role_matrix.py checks each role apart)."""
    return supervisor


def test_a_full_workflow_at_debug_logs_no_private_data(
    db, operator, debug_log, tmp_path, monkeypatch, profile, today
):
    logging.getLogger("fieldops.test").debug("logging works")  # the file is really written
    owner = create_person(
        db, operator, PersonInput(full_name=NAME, address=ADDRESS, city="Madison", phone=PHONE)
    )
    rex = create_animal(
        db, operator, AnimalInput(species="dog", name="Rex", owner_id=owner.id), today=today
    )
    imp = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            animal_id=rex.id,
            officer="Off. Dana Lee",
            reason="at_large",
            found_place=ADDRESS,
        ),
        profile,
    )
    at = local(2026, 11, 10, 9)
    fees = quote(db, imp.id, at, True, profile)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput((LineInput("impound", fees.total),), "cash", "R-9", payer_id=owner.id),
        profile,
    )
    release(
        db,
        operator,
        imp.id,
        ReleaseRequest(  # the owner reclaims (58-526(b)(1)), buying the dog's licence
            True,
            owner.id,
            at=at,
            rabies_prepaid_receipt="Vet receipt 555",
            licence_receipt="L-555",
        ),
        profile,
    )
    bitten = days_ago(2)
    qs.report_bite(
        db,
        operator,
        bite_input(
            bitten,
            victim_name=VICTIM,
            victim_contact=f"{VICTIM_PHONE}, {ADDRESS}",
            place=ADDRESS,
            animal_description="brown dog",
            owner_unknown=True,
            species="other",
            ordered_at=None,
            reported_at=bitten + timedelta(minutes=5),
        ),
        PROFILE,
    )
    # A bug: the database refuses a row and its error quotes the row (and the password).
    with pytest.raises(IntegrityError) as bug, db.write() as s:
        s.execute(
            text(
                "INSERT INTO staff_user (username, full_name, role, active, created_at, "
                "updated_at, version) VALUES (:u, :n, 'nobody', true, :t, :t, 1)"
            ),
            {"u": PASSWORD, "n": NAME, "t": at},
        )
    monkeypatch.setattr(cli_guard, "log_folder", lambda: tmp_path / "logs")
    monkeypatch.setattr("sys.argv", ["fieldops", "staff", PASSWORD, "--name", NAME, "--role=admin"])
    assert cli_guard.report(bug.value) == cli_guard.EXIT_BUG
    assert Decimal(fees.total) > 0

    logs = {
        p.name: p.read_text(encoding="utf-8") for p in (debug_log, *(tmp_path / "logs").iterdir())
    }
    assert "logging works" in logs["debug.log"]
    assert "IntegrityError" in logs["fieldops-command.log"]
    assert "fieldops staff … --name … --role=…" in logs["fieldops-command.log"]
    for name, content in logs.items():
        for secret in PLANTED:
            assert secret not in content, f"{secret!r} is in {name}"
