"""Administration → "Several workstations" (issue 13): which database this workstation
uses, and the steps to point every workstation at one PostgreSQL database; shown to
administrators only."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtWidgets import QApplication

from ui.admin.page import AdministrationWidget
from ui.admin.workstations import WorkstationsWidget
from ui.app import build_context


@pytest.fixture
def page_for(qtbot, qapp, errors):
    made = []

    def build(db, actor):
        ctx = build_context(db, actor, errors=errors)
        page = AdministrationWidget(ctx)
        qtbot.addWidget(page)
        made.append(ctx)
        return page

    yield build
    for ctx in made:
        qtbot.waitUntil(lambda c=ctx: c.tasks.pending_count() == 0, timeout=10_000)
        ctx.shutdown()
    QApplication.processEvents()


def test_an_administrator_sees_this_database_and_the_migrate_to_steps(
    qtbot, page_for, sqlite_db, admin
):
    page = page_for(sqlite_db, admin)
    panel = page.findChild(WorkstationsWidget)
    assert panel is not None
    path = sqlite_db.folder / "fieldops.db"
    assert str(path) in panel.database.text()
    steps = panel.steps.text()
    assert f"fieldops --db {path} migrate-to postgresql+psycopg://" in steps
    assert "FIELDOPS_DATABASE_URL=" in steps
    panel.copy_button.click()
    assert QApplication.clipboard().text() == panel.command
    assert panel.command.startswith(f"fieldops --db {path} migrate-to ")


@pytest.mark.parametrize("role", ["operator", "officer", "supervisor"])
def test_no_other_role_sees_the_panel(request, page_for, sqlite_db, role):
    actor = request.getfixturevalue(role)
    page = page_for(sqlite_db, actor)
    assert page.findChild(WorkstationsWidget) is None


def test_on_a_server_it_shows_the_url_without_its_password(qtbot, qapp, sqlite_db, admin):
    class ServerDb:  # the panel only reads where the database is
        url = "postgresql+psycopg://clerk:s3cret@db.city.local:5432/fieldops"
        folder = None
        description = "postgresql+psycopg://clerk:***@db.city.local:5432/fieldops"

    ctx = build_context(sqlite_db, admin)
    try:
        panel = WorkstationsWidget(dataclasses.replace(ctx, db=ServerDb()))
        qtbot.addWidget(panel)
        shown = panel.database.text() + panel.steps.text()
        assert "s3cret" not in shown and "***" not in shown
        assert "postgresql+psycopg://clerk@db.city.local:5432/fieldops" in shown
        assert not panel.copy_button.isVisibleTo(panel)
    finally:
        ctx.shutdown()
        QApplication.processEvents()


def test_a_path_with_a_space_is_quoted_in_the_command():
    from ui.admin.workstations import migrate_command

    assert migrate_command("/srv/pound data/f.db").startswith(
        'fieldops --db "/srv/pound data/f.db"'
    )


def test_the_administration_sections_scroll_instead_of_stretching_the_window(
    qtbot, page_for, sqlite_db, admin
):
    """With every section an administrator sees, the page still fits a laptop screen
    (768 pixels): the sections scroll under the heading."""
    page = page_for(sqlite_db, admin)
    assert page.findChild(WorkstationsWidget) is not None
    page.resize(1000, 600)
    page.show()
    qtbot.waitExposed(page)
    assert page.minimumSizeHint().height() < 600
    assert page.height() <= 600
