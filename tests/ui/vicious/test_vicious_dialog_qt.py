"""The vicious-animal dialogs keep Qt's own methods: a field named like one (``result``,
``count``) would hide it, and whoever asks the dialog how it ended would get a text box."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from vicious_cases import declared, owner_and_dog, with_step

from ui.vicious.action_dialogs import StepDoneDialog
from ui.vicious.case_dialog import CaseDialog


def test_a_step_taken_is_recorded_and_the_dialog_says_it_was_accepted(
    qtbot, ctx, host, profile, today
):
    _owner, dog = owner_and_dog(ctx.db, ctx.actor, today)
    case = with_step(ctx.db, ctx.actor, profile, dog.id, "seizure", date(2026, 11, 9))
    record = CaseDialog(ctx, case, host)
    qtbot.addWidget(record)
    record.show()
    dialog = record._act(StepDoneDialog)
    assert dialog.result() == QDialog.DialogCode.Rejected  # not ended yet
    ended: list[int] = []  # the dialog closes itself on save (and is deleted): ask as it ends
    dialog.accepted.connect(lambda: ended.append(dialog.result()))
    qtbot.keyClicks(dialog.outcome_text, "Dog seized at the residence")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: record.view().steps[0].done_on is not None, timeout=10_000)
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
    step = record.view().steps[0]
    assert step.result == "Dog seized at the residence"
    assert ended == [QDialog.DialogCode.Accepted]


def test_the_notice_is_saved_as_a_pdf_and_refused_in_the_database_folder(
    qtbot, ctx, host, profile, today, tmp_path, monkeypatch
):
    _owner, dog = owner_and_dog(ctx.db, ctx.actor, today)
    case = declared(ctx.db, ctx.actor, profile, dog.id)
    record = CaseDialog(ctx, case, host)
    qtbot.addWidget(record)
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "notice.pdf"  # tmp_path itself holds the test database
    monkeypatch.setattr(CaseDialog, "ask_save_path", lambda self, name: str(out))
    record.save_notice()
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
    assert record.doc_status.text().startswith("Saved"), record.doc_status.text()
    assert out.read_bytes().startswith(b"%PDF")
    inside = ctx.db.folder / "notice.pdf"
    monkeypatch.setattr(CaseDialog, "ask_save_path", lambda self, name: str(inside))
    record.save_notice()
    qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
    assert not inside.exists()
    assert str(ctx.db.folder) in record.doc_status.text()  # said on the form, not a traceback
