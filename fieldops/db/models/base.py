"""Declarative base with the naming convention every migration relies on."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import MetaData
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
