"""Helpers shared by test modules (importable because pytest puts tests/ on sys.path)."""

from __future__ import annotations

import os
from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from fieldops.errors import ValidationError

CHI = ZoneInfo("America/Chicago")


def local(y: int, m: int, d: int, hh: int = 10, mm: int = 0) -> datetime:
    """An aware instant in the city's time zone."""
    return datetime(y, m, d, hh, mm, tzinfo=CHI)


def images_besides_the_letterhead(pdf: bytes) -> list[str]:
    """Names of the images a PDF embeds other than the letterhead's badge.

    Every document prints the badge from resources/letterhead; anything else
    embedded (say, from an ``<img>`` tag in user text) is listed.
    """
    from io import BytesIO

    from PIL import Image
    from pypdf import PdfReader

    from fieldops import resources

    mark = Image.open(BytesIO(resources.read_bytes(resources.LETTERHEAD_MARK))).convert("RGBA")
    return [
        image.name
        for page in PdfReader(BytesIO(pdf)).pages
        for image in page.images
        if image.image.convert("RGBA").tobytes() != mark.tobytes()
    ]


def count_rows(db, model) -> int:
    """How many rows ``model``'s table holds."""
    with db.read() as s:
        return s.scalar(select(func.count()).select_from(model))


def refused(call, field: str) -> ValidationError:
    """``call()`` raises a ValidationError naming ``field``; the error, for more checks."""
    with pytest.raises(ValidationError) as info:
        call()
    assert field in info.value.by_field(), info.value.by_field()
    return info.value


@cache
def pg_url() -> str | None:
    """The PostgreSQL database of this test process, or None when FIELDOPS_TEST_PG_URL is unset.

    Run in parallel (``pytest -n``), each worker gets a database of its own, named after the
    given one with the worker's id (``fieldops_test_gw1``) and created when missing, because
    the session fixture drops and rebuilds its schema."""
    url = os.environ.get("FIELDOPS_TEST_PG_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    given = make_url(url)
    own = given.set(database=f"{given.database}_{worker}")
    server = create_engine(given, isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as conn:
            known = conn.execute(
                text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": own.database}
            ).first()
            if known is None:
                conn.exec_driver_sql(f'CREATE DATABASE "{own.database}"')
    finally:
        server.dispose()
    return own.render_as_string(hide_password=False)


def downgrade_to(db, revision: str) -> None:
    """``db``'s schema taken down to ``revision`` by its migrations (a database as an
    older release left it), committed."""
    from alembic import command

    from fieldops.db.migrate import alembic_config

    cfg = alembic_config(db.url)
    with db.engine.connect() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)
        conn.commit()
