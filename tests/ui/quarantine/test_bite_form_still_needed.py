"""Until the bite report is complete the form says what it still needs, in the words of its
own labels ("Place", "Reported by"), never the program's names ("owner id")."""

from __future__ import annotations

import shiboken6

from ui.quarantine import opening


def test_what_is_still_needed_reads_as_the_form_labels(qtbot, ctx, host, wait_idle):
    dialog = opening.new_bite_report(ctx, host)
    dialog.place.setText("Tenney Park")
    dialog.place.setText("")  # a change: the proposal is asked for, on an incomplete form
    qtbot.waitUntil(lambda: "still needed" in dialog.proposal.text(), timeout=10_000)
    text = dialog.proposal.text()
    assert "Place" in text and "Reported by" in text
    assert "_" not in text and " id" not in text and "&" not in text.replace("&amp;", "")
    wait_idle()
    if shiboken6.isValid(dialog):
        dialog.mark_clean()
        dialog.close()


def test_a_long_description_wraps_and_the_record_stays_on_a_screen(qtbot, ctx, host, bites):
    from quarantine_support import PROFILE, bite_input, days_ago

    from fieldops.services import quarantine as qs
    from ui.quarantine.record_dialog import QuarantineDialog

    description = "Tan and white short-haired mixed-breed dog, about forty pounds, " * 4
    r = qs.report_bite(
        bites.db,
        ctx.actor,
        bite_input(
            days_ago(2),
            animal_description=description.strip(),
            species="dog",
            owner_id=bites.ana.id,
            clinic_id=bites.clinic.id,
        ),
        PROFILE,
    )
    dialog = QuarantineDialog(ctx, qs.get_quarantine(bites.db, r.quarantine_id, PROFILE), host)
    qtbot.addWidget(dialog)
    assert description[:40] in dialog.heading.text()
    assert dialog.sizeHint().width() < 1280  # a laptop's screen; it was 2261 px wide
