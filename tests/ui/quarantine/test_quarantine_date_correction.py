"""A supervisor corrects a mistyped time of the bite on screen (issue 9 follow-up): a time
the rules make impossible is refused beside the value with the form kept; the right time
moves the record's dates, which come from the rules."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from quarantine_support import PROFILE, bite_input, day, local_today

from fieldops.rules.quarantine import quarantine_plan
from fieldops.services import quarantine as qs
from ui.common.text import day as day_words


def test_a_supervisor_corrects_the_time_of_the_bite(
    qtbot, qapp, sqlite_db, supervisor, operator, errors, bites
):
    from ui.app import build_context
    from ui.quarantine.record_dialog import QuarantineDialog

    db = bites.db
    # Written as 00:30 nine days ago; it happened at 23:30 the evening before.
    written = datetime.combine(day(9), time(0, 30), PROFILE.timezone)
    r = qs.report_bite(
        db,
        operator,
        bite_input(
            written,
            animal_id=bites.tom.id,
            clinic_id=bites.clinic.id,
            ordered_at=written + timedelta(hours=2),
        ),
        PROFILE,
    )
    before = qs.get_quarantine(db, r.quarantine_id, PROFILE)
    assert before.last_day == local_today() + timedelta(days=1)
    ctx = build_context(db, supervisor, errors=errors)
    try:
        record = QuarantineDialog(ctx, before)
        qtbot.addWidget(record)
        dialog = record.open_correction()
        dialog.what.setCurrentIndex(
            dialog.what.findText("time of the bite", Qt.MatchFlag.MatchContains)
        )
        assert dialog.editors.currentWidget() is dialog.bite_time
        assert dialog.bite_time.value() == written  # starts from what is on record
        # After the quarantine was ordered: refused beside the value, nothing written.
        dialog.bite_time.set_value(written + timedelta(hours=3))
        dialog.reason.setText("The caller gave the time after midnight by mistake")
        dialog.save_button.click()
        qtbot.waitUntil(lambda: dialog.fields.error_text("new_value") != "", timeout=10_000)
        assert "ordered" in dialog.fields.error_text("new_value")
        assert dialog.isVisible() and dialog.reason.text().startswith("The caller")
        assert qs.get_quarantine(db, r.quarantine_id, PROFILE).last_day == before.last_day
        # The right time, first declined at the question: nothing is written.
        dialog.bite_time.set_value(written - timedelta(hours=1))
        errors.answer = False
        asked = len(errors.questions)
        dialog.save_button.click()
        assert len(errors.questions) == asked + 1 and "dates" in errors.questions[-1]
        assert qs.get_quarantine(db, r.quarantine_id, PROFILE).last_day == before.last_day
        assert dialog.isVisible()
        # Confirmed: every date of the record moves with it.
        errors.answer = True
        dialog.save_button.click()
        qtbot.waitUntil(lambda: record.view.last_day == local_today(), timeout=10_000)
        assert record.view.bite.bitten_at == written - timedelta(hours=1)

        # The timeline is rebuilt: the old labels may linger until deleted, so look for
        # the one on screen, and give the rebuild its turn of the event loop.
        def last_day_shown() -> str:
            labels = record.findChildren(QLabel, "date_last_day")
            return " | ".join(lb.text() for lb in labels if not lb.isHidden())

        qtbot.waitUntil(lambda: day_words(local_today()) in last_day_shown(), timeout=10_000)
        plan = quarantine_plan(
            written - timedelta(hours=1),
            before.ordered_at,
            PROFILE,
            owner_known=True,
            rabies_proof=False,
        )
        assert record.view.certificate_due == plan.certificate_due
        assert record.view.window == plan.intervening_exam_window
    finally:
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        ctx.shutdown()
        QApplication.processEvents()
