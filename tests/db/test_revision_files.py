"""The start-up reads the schema's revisions without Alembic: they must be Alembic's own."""

from __future__ import annotations

from alembic.runtime.migration import MigrationContext

from fieldops.db.engine import Database
from fieldops.db.migrate import current_revision, head_revision, known_revisions, script_directory


def test_the_revisions_read_from_the_files_are_alembics():
    scripts = script_directory()
    revisions, head = known_revisions()
    assert set(revisions) == {r.revision for r in scripts.walk_revisions()}
    assert head == head_revision() == scripts.get_current_head()


def test_the_plain_query_reads_the_revision_alembic_reads(db, tmp_path):
    with db.engine.connect() as conn:
        assert (
            current_revision(db.engine) == MigrationContext.configure(conn).get_current_revision()
        )
    assert current_revision(db.engine) == head_revision()
    empty = Database(f"sqlite:///{tmp_path / 'empty.db'}")
    try:
        assert current_revision(empty.engine) is None  # no FieldOps schema yet
    finally:
        empty.dispose()
