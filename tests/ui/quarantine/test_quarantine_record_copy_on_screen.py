"""The bite case's record from the quarantine record's Documents tab (issue 11): the
public-records copy is saved with the person bitten withheld, and the export is audited."""

from __future__ import annotations

import io

from pypdf import PdfReader
from PySide6.QtCore import Qt
from quarantine_support import PROFILE, bite_input, days_ago
from sqlalchemy import text

from fieldops.services import quarantine as qs
from ui.quarantine.documents import DocumentButtons
from ui.quarantine.record_dialog import QuarantineDialog

VICTIM = "Jack <Doe> & Daughters"
CONTACT = "608-555-0199, 4 Secret Lane"


def text_of(content: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)


def exports(db) -> list[tuple]:
    with db.read() as s:
        return [
            tuple(r)
            for r in s.execute(
                text("SELECT actor, entity_id FROM audit_event WHERE action = 'record_exported'")
            )
        ]


def test_the_public_copy_is_saved_from_the_documents_tab(
    qtbot, ctx, bites, operator, tmp_path, monkeypatch
):
    r = qs.report_bite(
        bites.db,
        operator,
        bite_input(
            days_ago(1, 8),
            animal_id=bites.tom.id,
            clinic_id=bites.clinic.id,
            victim_name=VICTIM,
            victim_contact=CONTACT,
        ),
        PROFILE,
    )
    dialog = QuarantineDialog(ctx, qs.get_quarantine(bites.db, r.quarantine_id, PROFILE))
    qtbot.addWidget(dialog)
    docs = dialog.documents
    out = tmp_path / "out" / "copy.pdf"
    out.parent.mkdir()
    asked: list[str] = []

    def ask(self, name):
        asked.append(name)
        return str(out)

    monkeypatch.setattr(DocumentButtons, "ask_save_path", ask)
    save, _print, _open = docs.buttons["Public-records copy"]
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: docs.status.text().startswith("Saved"), timeout=15_000)
    got = text_of(out.read_bytes())
    assert "Public-records copy" in got and "(withheld)" in got
    assert "Daughters" not in got and "608-555-0199" not in got and "Secret" not in got
    assert asked == [f"bite-case-record-{r.bite_report_id}-public-copy.pdf"]
    assert exports(bites.db) == [(operator.username, r.bite_report_id)]

    full = tmp_path / "out" / "full.pdf"
    monkeypatch.setattr(DocumentButtons, "ask_save_path", lambda self, name: str(full))
    save, _print, _open = docs.buttons["Case record"]
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: str(full) in docs.status.text(), timeout=15_000)
    got = text_of(full.read_bytes())
    assert VICTIM in got and CONTACT in got
    assert len(exports(bites.db)) == 2


def test_a_copy_that_could_not_be_written_is_not_recorded_as_exported(
    qtbot, ctx, bites, operator, tmp_path, monkeypatch
):
    r = qs.report_bite(
        bites.db,
        operator,
        bite_input(days_ago(1, 8), animal_id=bites.tom.id, clinic_id=bites.clinic.id),
        PROFILE,
    )
    dialog = QuarantineDialog(ctx, qs.get_quarantine(bites.db, r.quarantine_id, PROFILE))
    qtbot.addWidget(dialog)
    docs = dialog.documents
    blocked = tmp_path / "out" / "a-folder"
    blocked.mkdir(parents=True)  # a folder where the file should go: the write fails
    monkeypatch.setattr(DocumentButtons, "ask_save_path", lambda self, name: str(blocked))
    save, _print, _open = docs.buttons["Case record"]
    qtbot.mouseClick(save, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not docs.status.text().startswith("Writing"), timeout=15_000)
    assert docs.status.text().startswith("Nothing was written"), docs.status.text()
    assert exports(bites.db) == []
    with bites.db.read() as s:
        reads = s.execute(
            text("SELECT count(*) FROM audit_event WHERE action = 'read:victim_contact'")
        ).scalar()
    assert reads == 0
