"""The quarantine's case items (a bite to refer, a specimen to send) carry their record's
own words, time and officer, as read from the bite report and the quarantine; on SQLite
and PostgreSQL (``db``). Their statements read columns, not ORM objects (issue 14)."""

from __future__ import annotations

from quarantine_support import PROFILE, bite_input, days_ago, local_today
from sqlalchemy import select

from fieldops.db.models import BiteReport, Quarantine
from fieldops.services import quarantine as qs
from fieldops.services.quarantine import module as quarantine_module


def test_a_bite_to_refer_and_a_specimen_to_send_carry_their_records(db, officer, supervisor, rex):
    clinic = qs.create_clinic(db, supervisor, qs.ClinicInput("City Animal Control Pound"))
    bat = qs.report_bite(
        db,
        officer,
        bite_input(
            days_ago(1),
            species="other",
            animal_description="Bat",
            owner_unknown=True,
            officer="Off. Ray Kim",
        ),
        PROFILE,
    ).bite_report_id
    dead = qs.report_bite(
        db, officer, bite_input(days_ago(3), animal_id=rex.id, clinic_id=clinic.id), PROFILE
    ).quarantine_id
    died_at = days_ago(1, 9)
    qs.record_death(db, officer, dead, "euthanized", died_at, PROFILE)
    with db.read() as s:
        reported_at, bite_officer = s.execute(
            select(BiteReport.reported_at, BiteReport.officer).where(BiteReport.id == bat)
        ).one()
        name, dead_officer = s.execute(
            select(Quarantine.animal_name, BiteReport.officer)
            .join(BiteReport, BiteReport.id == Quarantine.bite_report_id)
            .where(Quarantine.id == dead)
        ).one()
    items = {i.category: i for i in quarantine_module.due_items(db, local_today(), PROFILE)}

    refer = items["quarantine.referral_not_sent"]
    assert (refer.kind, refer.record_id, refer.overdue) == ("bite", bat, True)
    assert refer.due == reported_at
    assert refer.text == f"Bite #{bat} by a Bat at Tenney Park: refer to the health officer"
    assert refer.officer == bite_officer and "Kim" in bite_officer

    specimen = items["quarantine.specimen_not_sent"]
    assert (specimen.kind, specimen.record_id, specimen.overdue) == ("quarantine", dead, True)
    assert specimen.due == died_at
    assert specimen.text == (
        f"#{dead} {name}: euthanized; send the specimen to the State Laboratory of Hygiene"
        " (do not damage the head)"
    )
    assert specimen.officer == dead_officer and "Lee" in dead_officer
