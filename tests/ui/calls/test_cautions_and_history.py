"""Issue 16 beyond the call view: a caution on a person shows on every module's record of
them (and nothing shows for someone without one); the person's records on file and the
address history list every module's records and open them."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from quarantine_support import bite_input
from vicious_cases import declared

from fieldops.rules import Profile
from fieldops.services import quarantine as qs
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.calls.flags import set_flag
from fieldops.services.calls.records import CallInput, create_call
from fieldops.services.context import now
from fieldops.services.impounds import IntakeInput, get_impoundment, intake
from fieldops.services.people import PersonInput, create_person, get_person

PROFILE = Profile.default()
YEAR = date.today().year
REASON = "Threatened an officer with a bat"


def _impoundment(ctx, animal):
    from ui.impounds.record_dialog import ImpoundmentDialog

    imp = intake(
        ctx.db,
        ctx.actor,
        IntakeInput(
            impounded_at=now() - timedelta(days=1),
            animal_id=animal.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm & 3rd",
        ),
        PROFILE,
    )
    return ImpoundmentDialog(ctx, get_impoundment(ctx.db, imp.id, PROFILE, now()))


def _quarantine(ctx, animal):
    from ui.quarantine.record_dialog import QuarantineDialog

    clinic = qs.create_clinic(ctx.db, ctx.actor, qs.ClinicInput(f"Clinic {animal.id}"))
    bite = bite_input(now() - timedelta(hours=3), animal_id=animal.id, clinic_id=clinic.id)
    r = qs.report_bite(ctx.db, ctx.actor, bite, PROFILE)
    return QuarantineDialog(ctx, qs.get_quarantine(ctx.db, r.quarantine_id, PROFILE))


def _vicious(ctx, animal):
    from ui.vicious.case_dialog import CaseDialog

    return CaseDialog(ctx, declared(ctx.db, ctx.actor, PROFILE, animal.id))


def _permit(ctx, animal):
    from fieldops.services.permits.applying import ChickenInput, apply_chicken
    from ui.permits.record_dialog import PermitDialog

    form = ChickenInput(date(YEAR, 1, 1), YEAR, 3, 0, 60)
    view = apply_chicken(ctx.db, ctx.actor, animal.owner_id, "1 Coop Ln", form, PROFILE)
    return PermitDialog(ctx, view)


def _licence(ctx, animal):
    from fieldops.services.licences.issue import LicenceInput, issue_licence
    from ui.licences.record_dialog import LicenceDialog

    form = LicenceInput(
        animal_id=animal.id,
        licence_year=YEAR,
        tag_number=f"T-{animal.id}",
        altered=True,
        applied_on=date(YEAR, 1, 1),
        rabies_vaccinated_on=date(YEAR - 1, 12, 1),
    )
    return LicenceDialog(ctx, issue_licence(ctx.db, ctx.actor, form, PROFILE))


RECORDS = {
    "impoundment": _impoundment,
    "quarantine": _quarantine,
    "vicious case": _vicious,
    "permit": _permit,
    "licence": _licence,
}


@pytest.mark.parametrize("record", RECORDS)
def test_a_record_of_a_flagged_owner_shows_the_caution_and_one_of_another_owner_does_not(
    qtbot, ctx, wait_idle, supervisor, today, record
):
    db = ctx.db
    ana = create_person(db, supervisor, PersonInput(full_name="Ana Ruiz", address="12 Elm St"))
    bea = create_person(db, supervisor, PersonInput(full_name="Bea Quinn", address="4 Oak Ave"))
    rex, tom = (
        create_animal(
            db, supervisor, AnimalInput(species="dog", name=n, owner_id=p.id), today=today
        )
        for n, p in (("Rex", ana), ("Tom", bea))
    )
    set_flag(db, supervisor, reason=REASON, person_id=ana.id)
    flagged, plain = RECORDS[record](ctx, rex), RECORDS[record](ctx, tom)
    for d in (flagged, plain):
        qtbot.addWidget(d)
        d.show()
    wait_idle()
    banner = flagged.cautions
    assert banner.isVisibleTo(flagged)
    assert REASON in banner.text() and "Ana Ruiz" in banner.text()
    assert REASON in banner.accessibleDescription() and banner.accessibleName()
    assert not plain.cautions.isVisibleTo(plain) and plain.cautions.cautions == ()


@pytest.fixture
def ana_on_file(ctx, supervisor, today):
    """Ana with an impoundment of her dog and a call about her, at 12 Elm St."""
    db = ctx.db
    ana = create_person(
        db, supervisor, PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison")
    )
    rex = create_animal(
        db, supervisor, AnimalInput(species="dog", name="Rex", owner_id=ana.id), today=today
    )
    imp = intake(
        db,
        supervisor,
        IntakeInput(
            impounded_at=now() - timedelta(days=2),
            animal_id=rex.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="12 Elm St, front yard",
            owner_id=ana.id,
        ),
        PROFILE,
    )
    call = create_call(
        db,
        supervisor,
        CallInput(
            datetime.now(UTC) - timedelta(hours=1),
            "phone",
            "noise",
            "12 Elm St",
            owner_id=ana.id,
            anonymous=True,
        ),
    )
    return ana, imp, call


def test_the_persons_records_on_file_list_her_impoundment_and_call_and_open_one_and_a_new_caution_shows(
    qtbot, ctx, wait_idle, wait_dialog, ana_on_file
):
    from ui.people.person_dialog import PersonDialog

    ana, imp, call = ana_on_file
    dialog = PersonDialog(ctx, get_person(ctx.db, ana.id))
    qtbot.addWidget(dialog)
    dialog.show()
    wait_idle()
    tab = dialog.tabs.indexOf(dialog.records)
    assert dialog.tabs.isTabEnabled(tab)
    dialog.tabs.setCurrentIndex(tab)
    keys = dialog.records.keys()
    assert keys.index(("call", "call", call.id)) < keys.index(("impound", "impoundment", imp.id))
    assert not dialog.cautions.isVisibleTo(dialog)  # nobody flagged her yet
    set_flag(ctx.db, ctx.actor, reason=REASON, address="12 Elm St")  # from a call's dialog
    ctx.bus.changed.emit("field_call", call.id)
    wait_idle()
    assert dialog.cautions.isVisibleTo(dialog) and REASON in dialog.cautions.text()
    row = keys.index(("impound", "impoundment", imp.id))
    dialog.records.itemActivated.emit(dialog.records.item(row))
    opened = wait_dialog("ImpoundmentDialog")
    assert opened.impoundment_id() == imp.id
    opened.close()


def test_the_address_history_from_people_and_animals_finds_a_permit_and_a_call_there(
    qtbot, ctx, wait_idle, wait_dialog, supervisor, host
):
    from fieldops.services.permits.applying import ChickenInput, apply_chicken
    from ui.people.page import PeopleAndAnimalsWidget

    db = ctx.db
    ida = create_person(db, supervisor, PersonInput(full_name="Ida Park", address="40 Oak Ave"))
    form = ChickenInput(date(YEAR, 1, 1), YEAR, 3, 0, 60)
    permit = apply_chicken(db, supervisor, ida.id, "12 Elm St", form, PROFILE)
    elsewhere = apply_chicken(db, supervisor, ida.id, "40 Oak Ave", form, PROFILE, first=False)
    call = create_call(
        db,
        supervisor,
        CallInput(datetime.now(UTC), "phone", "at_large", "12 elm st.", anonymous=True),
    )
    set_flag(db, supervisor, reason="Dog has attacked", address="12 Elm St")
    page = PeopleAndAnimalsWidget(ctx, host)
    wait_idle()
    assert page.address_action in page.page_actions()
    page.address_button.click()
    dialog = wait_dialog("AddressHistoryDialog")
    qtbot.keyClicks(dialog.address, "12 Elm St, Madison")
    qtbot.mouseClick(dialog.find_button, Qt.MouseButton.LeftButton)
    wait_idle()
    keys = dialog.records.keys()
    assert ("permit", "permit", permit.id) in keys and ("call", "call", call.id) in keys
    assert ("permit", "permit", elsewhere.id) not in keys
    assert dialog.cautions.isVisibleTo(dialog) and "Dog has attacked" in dialog.cautions.text()
    dialog.close()
