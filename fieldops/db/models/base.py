"""Declarative base with the naming convention every migration relies on."""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Index, MetaData, text
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

from fieldops.db.types import UTCDateTime

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# Partial indexes: the condition is stated once, and each dialect's spelling of it
# (``sqlite_where``, ``postgresql_where``) is added when a database of that dialect is
# opened (``use_dialect``, called by fieldops.db.engine). Written as keyword arguments,
# SQLAlchemy would import every dialect named to check them: the PostgreSQL one (about
# 0.1 s of a desktop's start-up) on SQLite too (issue 14). The migrations create the
# same indexes with both spellings; tests/db/test_partial_indexes.py proves each
# database's indexes are the models' on both.
WHERE = "where"  # the key of ``Index.info`` holding a partial index's condition
_partial: list[Index] = []
_dialects: list[str] = []  # those whose databases were opened in this process


def partial_index(name: str, *columns: str, where: str, unique: bool = False) -> Index:
    """An index of the rows matching ``where`` (SQL), on every back end."""
    index = Index(name, *columns, unique=unique, info={WHERE: where})
    _partial.append(index)
    for dialect in _dialects:
        _spell(index, dialect)
    return index


def use_dialect(dialect: str) -> None:
    """Give every partial index its condition in ``dialect``'s own option."""
    if dialect in _dialects:
        return
    _dialects.append(dialect)
    for index in _partial:
        _spell(index, dialect)


def _spell(index: Index, dialect: str) -> None:
    index.dialect_kwargs[f"{dialect}_{WHERE}"] = text(index.info[WHERE])


class Timestamped:
    """Created/updated instants and an optimistic-lock version.

    The version column makes a second workstation's stale edit fail loudly
    instead of silently overwriting the first one's.
    """

    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)
    version: Mapped[int] = mapped_column(default=1)

    @declared_attr.directive
    def __mapper_args__(cls) -> dict[str, Any]:  # noqa: N805 (declared_attr passes the class)
        return {"version_id_col": cls.version}


class Archivable:
    """Records are never hard-deleted: archiving is an audited change with a reason."""

    archived_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    archive_reason: Mapped[str | None] = mapped_column(default=None)
