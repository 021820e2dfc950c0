"""The keys that make a retried save idempotent.

A form makes one random key when it opens and sends it with every attempt to
save. The service writes the key in the same transaction as the record it
creates, so a retry after a save whose reply was lost (the commit happened,
the window never heard) finds the key and returns the record already made
instead of making a second one.
"""

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base, utcnow
from fieldops.db.types import UTCDateTime


class SaveKey(Base):
    __tablename__ = "save_key"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    entity: Mapped[str] = mapped_column(String(40))
    entity_id: Mapped[int]
    actor: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
