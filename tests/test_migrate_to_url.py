"""The URL migrate-to is given, and a database whose path or URL holds a "%".

Only PostgreSQL is a target. A database whose path or URL holds a "%" is migrated
like any other: Alembic reads its URL option through configparser's interpolation,
so a file named ``50%.db`` or a PostgreSQL URL with an escape (a password's ``%40``,
the ``options=-csearch_path%3D...`` that ``migrate-to`` tests use) crashed the
upgrade with "invalid interpolation syntax".
"""

from __future__ import annotations

import pytest

from fieldops import migrate_to as mt
from fieldops.db.migrate import alembic_config, current_revision, head_revision
from fieldops.services.setup import open_database


def test_a_database_file_with_a_percent_in_its_name_is_created_and_upgraded(tmp_path):
    opened = open_database(str(tmp_path / "pound 50%off.db"))
    try:
        assert opened.created
        assert current_revision(opened.db.engine) == head_revision()
    finally:
        opened.db.dispose()


def test_the_url_alembic_is_given_reads_back_unchanged():
    url = "postgresql+psycopg://clerk:p%40ss@db.city/fieldops?options=-csearch_path%3Dpound"
    assert alembic_config(url).get_main_option("sqlalchemy.url") == url


@pytest.mark.parametrize(
    "url",
    ["sqlite:////tmp/other.db", "mysql://u@h/db", "not a url", "postgresql+psycopg://u@h"],
)
def test_a_target_that_is_not_a_postgresql_database_is_refused(url):
    with pytest.raises(mt.MigrateTargetError, match="nothing was copied"):
        mt.check_target_url(url)
