"""An examination that finds the animal dead closes the quarantine: like the death recorded
on its own, it is asked first, and Enter in the exam form answers nothing by itself."""

from __future__ import annotations

import pytest
import shiboken6
from PySide6.QtCore import Qt
from quarantine_support import PROFILE, bite_input, day, days_ago

from fieldops.services import quarantine as qs
from ui.quarantine.event_dialogs import ExamDialog


@pytest.fixture
def form(qtbot, ctx, host, bites):
    r = qs.report_bite(
        bites.db,
        ctx.actor,
        bite_input(
            days_ago(3),
            animal_id=bites.rex.id,
            owner_id=bites.ana.id,
            rabies_certificate="RV-77",
            rabies_vaccinated_on=day(300),
            rabies_expires_on=day(-400),
        ),
        PROFILE,
    )
    dialog = ExamDialog(ctx, r.quarantine_id, host)  # deletes itself once saved and closed
    dialog.show()
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0)
    dialog.veterinarian.setText("Dr. Kim")
    dialog.fee.setText("0")
    yield dialog, r.quarantine_id
    if shiboken6.isValid(dialog):
        dialog.mark_clean()
        dialog.close()


@pytest.mark.parametrize(("answer", "status"), [(False, "open"), (True, "died")])
def test_a_finding_of_death_is_asked_before_the_quarantine_closes(
    qtbot, ctx, bites, form, answer, status
):
    dialog, qid = form
    dialog.finding.setCurrentIndex(dialog.finding.findData("died"))
    ctx.errors.answer = answer
    asked = len(ctx.errors.questions)
    dialog.fee.setFocus()
    qtbot.keyClick(dialog.fee, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0)
    assert len(ctx.errors.questions) == asked + 1
    assert qs.get_quarantine(bites.db, qid, PROFILE).status == status


def test_an_exam_finding_no_signs_asks_nothing(qtbot, ctx, bites, form):
    dialog, qid = form
    asked = len(ctx.errors.questions)
    dialog.save_button.click()
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0)
    view = qs.get_quarantine(bites.db, qid, PROFILE)
    assert len(ctx.errors.questions) == asked and view.status == "open" and len(view.exams) == 1
