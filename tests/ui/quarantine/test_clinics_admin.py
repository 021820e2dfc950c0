"""The clinic register in Administration (issue 9): a supervisor adds a clinic and changes its
licence status; an operator reads it only."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from fieldops.services import quarantine as qs
from ui.admin.page import AdministrationWidget
from ui.app import build_context
from ui.quarantine.clinics import ClinicsWidget


def test_a_supervisor_registers_a_clinic_and_withdraws_its_licence(
    qtbot, qapp, sqlite_db, supervisor, errors
):
    ctx = build_context(sqlite_db, supervisor, errors=errors)
    try:
        page = AdministrationWidget(ctx)
        qtbot.addWidget(page)
        widget = page.findChild(ClinicsWidget)
        assert widget is not None and widget.add_button.isEnabled()
        widget.add_button.click()
        qtbot.waitUntil(lambda: widget.fields.error_text("name") != "", timeout=10_000)
        widget.name.setText("City Animal Control Pound")
        widget.is_pound.setChecked(True)
        widget.add_button.click()
        qtbot.waitUntil(lambda: widget.model.rowCount() == 1, timeout=10_000)
        widget.view.selectRow(0)
        widget.licensed.setChecked(False)
        widget.change_button.click()
        qtbot.waitUntil(
            lambda: widget.model.rowCount() == 1 and not widget.model.row_object(0).licensed,
            timeout=10_000,
        )
        assert qs.list_clinics(sqlite_db, licensed_only=True) == ()
        assert [c.is_pound for c in qs.list_clinics(sqlite_db)] == [True]
    finally:
        qtbot.waitUntil(lambda: ctx.tasks.pending_count() == 0, timeout=10_000)
        ctx.shutdown()
        QApplication.processEvents()


def test_an_operator_only_reads_the_register(ctx, qtbot):
    widget = ClinicsWidget(ctx)
    qtbot.addWidget(widget)
    assert not widget.add_button.isEnabled() and not widget.change_button.isEnabled()
