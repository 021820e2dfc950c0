"""The records every module shares: people, animals, vaccinations, clinics, staff."""

from datetime import date, datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, false, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from fieldops.db.models.base import Archivable, Base, Timestamped, partial_index
from fieldops.db.types import UTCDateTime
from fieldops.permissions import ROLES

SPECIES = ("dog", "cat", "other")
SEXES = ("male", "female", "unknown")


class Person(Timestamped, Archivable, Base):
    """Owners, adopters, bitten persons, veterinarians: anyone the unit records."""

    __tablename__ = "person"
    __table_args__ = (
        # Lists page through active people in name order: a covering partial
        # index makes a deep page a short index walk (bench/registry.py).
        partial_index("ix_person_active_order", "sort_name", "id", where="archived_at IS NULL"),
        Index("ix_person_archived_at", "archived_at"),
        # A search's matches come in id order; their sort key and archived check are
        # read here, not from each row (migration 0028).
        Index("ix_person_id_sort", "id", "archived_at", "sort_name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    full_name: Mapped[str] = mapped_column(String(200))
    # Lower-cased "family, given" used for ordering lists; kept by the service.
    sort_name: Mapped[str] = mapped_column(String(200))
    address: Mapped[str] = mapped_column(String(300), default="")
    city: Mapped[str] = mapped_column(String(100), default="")
    # Two-letter postal abbreviation; the jurisdiction's own by default (0007).
    state: Mapped[str] = mapped_column(String(2), default="WI", server_default="WI")
    postal_code: Mapped[str] = mapped_column(String(20), default="")
    in_city: Mapped[bool] = mapped_column(default=True)
    phone: Mapped[str] = mapped_column(String(50), default="")
    # Digits of the phone, whole and the local seven, so "555-1234" finds it.
    search_phone: Mapped[str] = mapped_column(String(60), default="")
    email: Mapped[str] = mapped_column(String(200), default="")
    is_veterinarian: Mapped[bool] = mapped_column(default=False)
    clinic_id: Mapped[int | None] = mapped_column(ForeignKey("clinic.id"), default=None)
    notes: Mapped[str] = mapped_column(Text, default="")

    animals: Mapped[list["Animal"]] = relationship(back_populates="owner")


class PersonWord(Base):
    """Each word of four characters or more of an active person's searched text, under
    its first four, in the People list's order: a one-word search's first page is a
    range read that stops after the page (migration 0030, whose triggers keep it)."""

    __tablename__ = "person_word"
    __table_args__ = ({"sqlite_with_rowid": False},)

    head: Mapped[str] = mapped_column(String(4), primary_key=True)
    sort_name: Mapped[str] = mapped_column(String(200), primary_key=True)
    person_id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    word: Mapped[str] = mapped_column(Text, primary_key=True)


class Clinic(Timestamped, Archivable, Base):
    """A veterinary clinic; only a licensed one may hold a clinic quarantine (95.21)."""

    __tablename__ = "clinic"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    address: Mapped[str] = mapped_column(String(300), default="")
    phone: Mapped[str] = mapped_column(String(50), default="")
    licensed: Mapped[bool] = mapped_column(default=True)
    # The pound registered as a clinic: a quarantine there is paid at the pound's counter.
    is_pound: Mapped[bool] = mapped_column(default=False, server_default=false())


class Animal(Timestamped, Archivable, Base):
    __tablename__ = "animal"
    __table_args__ = (
        CheckConstraint("species IN ('dog', 'cat', 'other')", name="species"),
        CheckConstraint("sex IN ('male', 'female', 'unknown')", name="sex"),
        Index("ix_animal_microchip", "microchip"),
        Index("ix_animal_licence_number", "licence_number"),
        partial_index("ix_animal_active_order", "name", "id", where="archived_at IS NULL"),
        Index("ix_animal_archived_at", "archived_at"),
        # A search's own matches and the animals of the owners it matched, with their
        # sort key, without reading their rows (migration 0028).
        Index("ix_animal_id_name", "id", "archived_at", "name"),
        Index("ix_animal_owner_name", "owner_id", "archived_at", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), default="")
    species: Mapped[str] = mapped_column(String(10))
    species_detail: Mapped[str] = mapped_column(String(100), default="")  # for "other"
    breed: Mapped[str] = mapped_column(String(100), default="")
    colour: Mapped[str] = mapped_column(String(100), default="")
    sex: Mapped[str] = mapped_column(String(10), default="unknown")
    altered: Mapped[bool | None] = mapped_column(default=None)
    birth_date: Mapped[date | None] = mapped_column(default=None)  # approximate
    markings: Mapped[str] = mapped_column(Text, default="")
    microchip: Mapped[str | None] = mapped_column(String(30), default=None)
    licence_number: Mapped[str | None] = mapped_column(String(30), default=None)
    licence_year: Mapped[int | None] = mapped_column(default=None)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("person.id"), default=None, index=True)
    notes: Mapped[str] = mapped_column(Text, default="")

    owner: Mapped[Person | None] = relationship(back_populates="animals")
    vaccinations: Mapped[list["RabiesVaccination"]] = relationship(
        back_populates="animal", order_by="RabiesVaccination.vaccinated_on"
    )


class RabiesVaccination(Base):
    __tablename__ = "rabies_vaccination"
    __table_args__ = (CheckConstraint("expires_on >= vaccinated_on", name="expiry_after_date"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    animal_id: Mapped[int] = mapped_column(ForeignKey("animal.id"), index=True)
    certificate_number: Mapped[str] = mapped_column(String(50), default="")
    vaccinated_on: Mapped[date]
    expires_on: Mapped[date]
    veterinarian: Mapped[str] = mapped_column(String(200), default="")
    clinic_id: Mapped[int | None] = mapped_column(ForeignKey("clinic.id"), default=None)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)

    animal: Mapped[Animal] = relationship(back_populates="vaccinations")


class StaffUser(Timestamped, Base):
    __tablename__ = "staff_user"
    __table_args__ = (
        CheckConstraint(f"role IN ({', '.join(repr(r) for r in ROLES)})", name="role"),
        Index("ix_staff_user_os_user", "os_user", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(100), unique=True)
    full_name: Mapped[str] = mapped_column(String(200), default="")
    role: Mapped[str] = mapped_column(String(20), default="operator")
    active: Mapped[bool] = mapped_column(default=True)
    # Sign-in (migration 0013). No hash: the account cannot sign in to the window yet.
    password_hash: Mapped[str | None] = mapped_column(String(200), default=None)
    must_change_password: Mapped[bool] = mapped_column(default=False, server_default=false())
    failed_attempts: Mapped[int] = mapped_column(default=0, server_default=text("0"))
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    # The operating-system login the command line acts as (unique; none: not mapped).
    os_user: Mapped[str | None] = mapped_column(String(100), default=None)


class AppSetting(Base):
    """Settings an administrator changes in the window (the idle lock's period, ...)."""

    __tablename__ = "app_setting"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(String(500), default="")
