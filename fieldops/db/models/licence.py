"""Dog licences (city code 58-533(c); Wis. Stat. ch. 174; RULES.md section 6).

One row is one licence for one licence year: the dog, its owner, the tag, what the
rules quoted (rate, half rate, late fee, total) and what was paid, the rabies
certificate it was issued on, and where (the counter, or the pound with the
impoundment). A licence is never deleted. Replacing a lost tag or transferring the
licence to a new owner writes a new row naming the one it follows (``previous_id``)
and marks that one "replaced" or "transferred"; a void keeps its reason. Every change
is in the audit trail, and ``version`` refuses a stale edit.
"""

from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column

from fieldops.db.models.base import Base, Timestamped, partial_index
from fieldops.db.types import Money, UTCDateTime

LICENCE_STATUSES = ("current", "replaced", "transferred", "void")
LICENCE_ORIGINS = ("new", "renewal", "replacement", "transfer")
ISSUE_PLACES = ("counter", "pound")


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


# The licences list's sort keys on the licence row, each with an index (migration 0025).
LIST_ORDER_KEYS = ("licence_year", "issued_at", "animal_name", "owner_sort_name", "status", "total")

# A transfer keeps the dog's tag; every other licence has a tag of its own that year.
OWN_TAG = "origin <> 'transfer'"


class DogLicence(Timestamped, Base):
    __tablename__ = "dog_licence"
    __table_args__ = (
        CheckConstraint(_in("status", LICENCE_STATUSES), name="status"),
        CheckConstraint(_in("origin", LICENCE_ORIGINS), name="origin"),
        CheckConstraint(_in("issued_place", ISSUE_PLACES), name="issued_place"),
        CheckConstraint("total >= 0 AND paid_amount >= 0 AND late_fee >= 0", name="amounts"),
        partial_index(
            "ix_dog_licence_year_tag", "licence_year", "tag_number", where=OWN_TAG, unique=True
        ),
        Index("ix_dog_licence_tag_number", "tag_number"),
        Index("ix_dog_licence_receipt_number", "receipt_number"),
        Index("ix_dog_licence_animal_year", "animal_id", "licence_year"),
        Index("ix_dog_licence_owner_id", "owner_id"),
        Index("ix_dog_licence_status_year", "status", "licence_year", "id"),
        # Today's count of dogs to renew reads these alone (migration 0020).
        Index("ix_dog_licence_year_animal", "status", "licence_year", "animal_id"),
        Index("ix_dog_licence_animal_year_status", "animal_id", "licence_year", "status"),
        # The list's orders walked on an index, the id breaking ties (migration 0025).
        Index("ix_dog_licence_current_issued", "status", "licence_year", "issued_at", "id"),
        Index(
            "ix_dog_licence_unrenewed",
            *("status", "renewed", "licence_year", "issued_at", "id", "animal_id"),
        ),
        Index(
            "ix_dog_licence_unrenewed_later",
            *("status", "renewed_later", "licence_year", "issued_at", "id"),
        ),
        *(Index(f"ix_dog_licence_order_{key}", key, "id") for key in LIST_ORDER_KEYS),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id"))
    owner_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    licence_year: Mapped[int]
    tag_number: Mapped[str] = mapped_column(String(30))
    origin: Mapped[str] = mapped_column(String(12), default="new")
    previous_id: Mapped[int | None] = mapped_column(ForeignKey("dog_licence.id"), default=None)
    applied_on: Mapped[date]  # the local day of the application (the quote's day)
    altered: Mapped[bool]
    rate: Mapped[Decimal] = mapped_column(Money)
    half_rate: Mapped[bool] = mapped_column(default=False)
    due_by: Mapped[date]  # the last day without the late fee
    late: Mapped[bool] = mapped_column(default=False)
    late_fee: Mapped[Decimal] = mapped_column(Money)
    total: Mapped[Decimal] = mapped_column(Money)
    # The rabies certificate the licence was issued on (58-533(c)(5)).
    rabies_certificate: Mapped[str] = mapped_column(String(50), default="")
    rabies_vaccinated_on: Mapped[date | None] = mapped_column(default=None)
    rabies_expires_on: Mapped[date | None] = mapped_column(default=None)
    paid_amount: Mapped[Decimal] = mapped_column(Money)
    payment_method: Mapped[str] = mapped_column(String(10), default="cash")
    # The receipt the operator gives; blank at issue: the licence's own ("DL-000123").
    receipt_number: Mapped[str] = mapped_column(String(30), default="")
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime)
    issued_place: Mapped[str] = mapped_column(String(10), default="counter")
    impoundment_id: Mapped[int | None] = mapped_column(ForeignKey("impoundment.id"), default=None)
    issued_by: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(12), default="current")
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    void_reason: Mapped[str] = mapped_column(Text, default="")
    notes: Mapped[str] = mapped_column(Text, default="")
    # Copies for the list's sorts, kept by triggers whenever the licence, its dog or its
    # owner changes (migration 0025): a sort by a joined column cannot walk an index.
    # Never set them.
    animal_name: Mapped[str] = mapped_column(String(100), default="", server_default="")
    owner_sort_name: Mapped[str] = mapped_column(String(200), default="", server_default="")
    # Whether the dog has a current licence for the next licence year ("late"), and for any
    # later year ("expired"): kept by triggers for every licence of the dog whenever one is
    # written, changes status or year (migration 0025). Never set them.
    renewed: Mapped[bool] = mapped_column(default=False, server_default=false())
    renewed_later: Mapped[bool] = mapped_column(default=False, server_default=false())


class DogLicenceCount(Base):
    """How many licences there are of a year and status: the Licences list's count of
    "current" (and of "all") without reading a licence. Triggers keep it in the same
    transaction as every licence written, deleted, or changed in status or year
    (migration 0031); a row may fall to 0 and stay. Never write it."""

    __tablename__ = "dog_licence_count"
    __table_args__ = ({"sqlite_with_rowid": False},)

    licence_year: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    status: Mapped[str] = mapped_column(String(12), primary_key=True)
    n: Mapped[int]
