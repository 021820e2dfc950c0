"""The declaration walk with a linked bite report: the form offers the animal's bite
reports (through the seam), a chosen one fills the incident's date and place, the case view
opens the bite report through its module, and the notice prints the incident."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt, QUrl
from sqlalchemy import select
from support import local
from vicious_cases import owner_and_dog

from fieldops.db.models import ViciousCase
from fieldops.services import quarantine as qs
from fieldops.services.vicious.cases import load_case
from fieldops.services.vicious.listing import CaseFilter, count_cases
from ui import modules as ui_modules
from ui.vicious.case_dialog import CaseDialog, render_notice
from ui.vicious.case_view import record_link
from ui.vicious.declaration_dialog import DeclarationDialog

BITTEN = local(2026, 11, 26, 17, 15)


@pytest.fixture
def rex_bit(sqlite_db, operator, supervisor, today, profile):
    _owner, dog = owner_and_dog(sqlite_db, operator, today)
    clinic = qs.create_clinic(sqlite_db, supervisor, qs.ClinicInput("Eastside Clinic"))
    reported = qs.report_bite(
        sqlite_db,
        operator,
        qs.BiteInput(
            bitten_at=BITTEN,
            place="Tenney Park & Sherman Ave",
            victim_name="Jack O'Brien",
            reported_by="the person bitten",
            reported_at=BITTEN,
            officer="Off. Dana Lee",
            animal_id=dog.id,
            clinic_id=clinic.id,
            ordered_at=BITTEN,
        ),
        profile,
    )
    return dog, reported.bite_report_id


def wait_idle(qtbot, ctx):
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)


def test_a_declaration_rests_on_a_linked_bite_report(qtbot, ctx, host, rex_bit, profile):
    dog, bite_id = rex_bit
    dialog = DeclarationDialog(ctx, host)
    dialog.show()
    row = dialog.incident_rows[0]
    assert row.link.count() == 1  # no animal yet: only "described here"
    dialog.animal.set_animal(dog.id, f"#{dog.id} {dog.name}")
    qtbot.waitUntil(lambda: row.link.count() == 2, timeout=10_000)
    assert "Tenney Park" in row.link.itemText(1) and f"#{bite_id}" in row.link.itemText(1)
    assert "O'Brien" not in row.link.itemText(1)  # the victim stays on the bite's record
    row.link.setCurrentIndex(1)
    assert row.place.text() == "Tenney Park & Sherman Ave" and not row.place.isEnabled()
    assert row.when.value() == BITTEN
    # A second incident, described here; it is offered the same bite report too.
    qtbot.mouseClick(dialog.add_incident_button, Qt.MouseButton.LeftButton)
    second = dialog.incident_rows[1]
    assert second.link.count() == 2 and second.link.currentIndex() == 0
    second.when.set_value(local(2026, 11, 26, 18))
    qtbot.keyClicks(second.place, "12 Elm St")
    qtbot.keyClicks(second.what, "Lunged at the mail carrier.")
    dialog.decided_at.set_value(local(2026, 11, 27, 9))
    dialog.grounds["bit_or_clawed"].setChecked(True)
    qtbot.mouseClick(dialog.none_apply, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: count_cases(ctx.db, CaseFilter(status="declared"), ctx.now()) == 1,
        timeout=10_000,
    )
    wait_idle(qtbot, ctx)

    with ctx.db.read() as s:
        case_id = s.scalars(select(ViciousCase.id)).one()
    view = load_case(ctx.db, case_id, profile)
    assert [i.linked for i in view.incidents] == [("quarantine", "bite", bite_id), None]

    case = CaseDialog(ctx, view, host)
    case.show()
    html = case.record.toHtml()
    assert "Tenney Park" in html and "Open the record" in html
    opened: list[int] = []
    with ui_modules.extra({("quarantine", "bite"): lambda _c, rid, _p: opened.append(rid)}):
        case.record.anchorClicked.emit(QUrl(record_link("quarantine", "bite", bite_id)))
    assert opened == [bite_id]

    pdf = render_notice(
        view,
        {"jurisdiction": "City of Riverton", "tz": profile.timezone, "printed_at": ctx.now()},
    )
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert f"Bite report #{bite_id}" in text and "Tenney Park & Sherman Ave" in text
    assert "O'Brien" not in text
    case.close()
