"""A declaration's incidents linked to bite reports through the seam: the quarantine
module offers the animal's bites as incidents, the declaration stores (module, kind, id)
with the date, place and summary as they stood, and refuses a link to a record not on file
for the animal."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from quarantine_support import bite_input
from sqlalchemy import select
from support import local
from vicious_cases import declaration, owner_and_dog

from fieldops.db.models import AuditEvent, ViciousCase, ViciousIncident
from fieldops.errors import ValidationError
from fieldops.modules import animal_incidents
from fieldops.services import quarantine as qs
from fieldops.services.vicious.declaring import IncidentInput, declare
from fieldops.services.vicious.declaring import animal_incidents as offered_for_form


@pytest.fixture
def operator(officer):
    """Bites, quarantines and vicious cases are an officer's work (issue 12's roles)."""
    return officer


BITTEN = local(2026, 11, 1, 17, 30)


@pytest.fixture
def dog(db, operator, today):
    return owner_and_dog(db, operator, today)[1]


@pytest.fixture(autouse=True)
def clinic(db, supervisor):
    return qs.create_clinic(db, supervisor, qs.ClinicInput("Eastside Veterinary Clinic"))


def bite_of(db, actor, profile, animal_id, at=BITTEN, place="Tenney Park"):
    with db.read() as s:
        from fieldops.db.models import Clinic

        clinic_id = s.scalars(select(Clinic.id)).first()
    inp = bite_input(at, animal_id=animal_id, place=place, clinic_id=clinic_id)
    return qs.report_bite(db, actor, inp, profile)


def linked(inp, *links, what=""):
    return replace(
        inp, incidents=tuple(IncidentInput(None, "", what, linked=link) for link in links)
    )


def test_the_quarantine_module_offers_the_animals_bites_and_no_victim(
    db, operator, profile, dog, today
):
    bite_of(db, operator, profile, dog.id)
    other = owner_and_dog(db, operator, today, owner_name="Bo Park", dog="Fido")[1]
    bite_of(db, operator, profile, other.id, place="Elsewhere")
    found = offered_for_form(db, dog.id)
    assert len(found) == 1
    (i,) = found
    assert (i.module, i.kind) == ("quarantine", "bite")
    assert i.when == BITTEN and i.place == "Tenney Park"
    assert "O'Brien" not in i.summary and "555" not in i.summary
    with db.read() as s:
        assert animal_incidents(s, dog.id) == found


def test_a_declaration_rests_on_a_linked_bite_report_and_one_described(db, operator, profile, dog):
    bite_of(db, operator, profile, dog.id)
    (offered,) = offered_for_form(db, dog.id)
    link = (offered.module, offered.kind, offered.record_id)
    base = declaration(dog.id)
    inp = replace(
        base,
        incidents=(
            *base.incidents,
            IncidentInput(None, "", "Owner admits the dog was loose.", linked=link),
        ),
    )
    view = declare(db, operator, inp, profile)
    assert view.declared
    by_link = {i.linked: i for i in view.incidents}
    assert set(by_link) == {None, link}
    mine = by_link[link]
    assert mine.occurred_at == BITTEN and mine.place == "Tenney Park"
    assert offered.summary in mine.what and "loose" in mine.what
    with db.read() as s:
        rows = s.scalars(select(ViciousIncident).order_by(ViciousIncident.id)).all()
        ev = s.scalars(
            select(AuditEvent).where(
                AuditEvent.entity == "vicious_case", AuditEvent.action == "declare"
            )
        ).one()
    assert [(r.source_module, r.source_kind, r.source_id) for r in rows] == [
        (None, None, None),
        link,
    ]
    assert ev.after["linked"] == [f"quarantine:bite:{offered.record_id}"]


def test_a_link_to_another_animals_bite_a_duplicate_or_a_later_bite_is_refused(
    db, operator, profile, dog, today
):
    other = owner_and_dog(db, operator, today, owner_name="Bo Park", dog="Fido")[1]
    bite_of(db, operator, profile, other.id)
    (not_mine,) = offered_for_form(db, other.id)
    wrong = ("quarantine", "bite", not_mine.record_id)
    base = declaration(dog.id)
    with pytest.raises(ValidationError) as exc:
        declare(db, operator, linked(base, wrong), profile)
    assert "incidents.0.linked" in exc.value.by_field()
    with pytest.raises(ValidationError) as exc:
        declare(db, operator, linked(base, ("nowhere", "bite", 1)), profile)
    assert "incidents.0.linked" in exc.value.by_field()

    bite_of(db, operator, profile, dog.id)
    later = base.decided_at + timedelta(hours=2)
    bite_of(db, operator, profile, dog.id, at=later)
    first, second = offered_for_form(db, dog.id)
    one = (first.module, first.kind, first.record_id)
    with pytest.raises(ValidationError) as exc:
        declare(db, operator, linked(base, one, one), profile)
    assert "incidents.1.linked" in exc.value.by_field()
    with pytest.raises(ValidationError) as exc:
        declare(db, operator, linked(base, ("quarantine", "bite", second.record_id)), profile)
    assert "after the decision" in exc.value.by_field()["incidents.0.linked"]
    with db.read() as s:
        assert s.query(ViciousCase).count() == 0 and s.query(ViciousIncident).count() == 0


def test_a_declaration_rests_on_linked_bites_alone(db, operator, profile, dog):
    bite_of(db, operator, profile, dog.id)
    (offered,) = offered_for_form(db, dog.id)
    view = declare(
        db,
        operator,
        linked(declaration(dog.id), ("quarantine", "bite", offered.record_id)),
        profile,
    )
    (only,) = view.incidents
    assert only.linked == ("quarantine", "bite", offered.record_id)
    assert only.what == offered.summary


def test_check_reports_a_link_to_a_record_no_longer_offered(db, operator, profile, dog):
    from fieldops import modules
    from fieldops.services.vicious.module import checks

    bite_of(db, operator, profile, dog.id)
    (offered,) = offered_for_form(db, dog.id)
    declare(
        db,
        operator,
        linked(declaration(dog.id), ("quarantine", "bite", offered.record_id)),
        profile,
    )
    with db.engine.connect() as conn:
        assert checks(conn) == []
    quarantine = next(m for m in modules.installed_modules() if m.key == "quarantine")
    with modules.extra(replace(quarantine, incidents=None)), db.engine.connect() as conn:
        assert any("linked to a record not on file" in p for p in checks(conn))
