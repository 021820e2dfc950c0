"""The impounds list: filtered, searched and sorted in SQL, fetched a page at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import and_, func, or_, select

from fieldops.db.engine import Database
from fieldops.db.models import Animal, Disposition, Impoundment, Person
from fieldops.rules import Profile, boarding_days
from fieldops.services.impound_views import DISPOSITIONS, ImpoundRow
from fieldops.services.listing import Page, fts_ids

STATUSES = {
    "all": "All",
    "in_custody": "In custody",
    "on_hold": "On hold",
    "adoptable": "Adoptable",
    "released": "Released (reclaimed or adopted)",
    "disposed": "All dispositions",
}

SORTS = {
    "impounded_at": Impoundment.impounded_at,
    "last_claim_day": Impoundment.last_claim_day,
    "animal": Animal.name,
    "species": Animal.species,
    "owner": Person.sort_name,
    "kennel": Impoundment.kennel,
}


@dataclass(frozen=True)
class ImpoundFilter:
    status: str = "in_custody"
    species: str = ""
    date_from: date | None = None
    date_to: date | None = None
    text: str = ""
    sort: str = "impounded_at"
    descending: bool = True


def _latest_disposition():
    """The current disposition of each impoundment: corrections are always the newest row."""
    latest = (select(Disposition.impoundment_id, func.max(Disposition.id).label("id"))
              .group_by(Disposition.impoundment_id).subquery())
    return (select(Disposition.impoundment_id, Disposition.kind, Disposition.at)
            .join(latest, latest.c.id == Disposition.id).subquery())


def _query(db: Database, f: ImpoundFilter, at: datetime):
    disp = _latest_disposition()
    q = (
        select(Impoundment.id, disp.c.kind, disp.c.at, Animal.name, Animal.species,
               Animal.breed, Animal.colour, Impoundment.impounded_at,
               Impoundment.custody_day, Impoundment.last_claim_day,
               Impoundment.release_to_others_from, func.coalesce(Person.full_name, ""),
               Impoundment.kennel)
        .join(Animal, Animal.id == Impoundment.animal_id)
        .outerjoin(Person, Person.id == Impoundment.owner_id)
        .outerjoin(disp, disp.c.impoundment_id == Impoundment.id)
    )
    if f.status == "in_custody":
        q = q.where(Impoundment.disposed.is_(False))
    elif f.status == "on_hold":
        q = q.where(Impoundment.disposed.is_(False), Impoundment.release_to_others_from > at)
    elif f.status == "adoptable":
        q = q.where(Impoundment.disposed.is_(False), Impoundment.release_to_others_from <= at)
    elif f.status == "released":
        q = q.where(disp.c.kind.in_(("reclaimed", "adopted")))
    elif f.status == "disposed":
        q = q.where(Impoundment.disposed.is_(True))
    if f.species:
        q = q.where(Animal.species == f.species)
    if f.date_from:
        q = q.where(Impoundment.custody_day >= f.date_from)
    if f.date_to:
        q = q.where(Impoundment.custody_day <= f.date_to)
    text_ = (f.text or "").strip()
    if text_:
        code = text_.replace(" ", "").upper()
        conds = [Animal.microchip == code, Animal.licence_number == code,
                 Impoundment.kennel == text_]
        if text_.isdigit():
            conds.append(Impoundment.id == int(text_))
        for table, column in (("animal", Animal.id), ("person", Impoundment.owner_id)):
            ids = fts_ids(db, table, text_)
            if ids is not None:
                conds.append(column.in_(ids))
        q = q.where(or_(*conds))
    return q


def count_impounds(db: Database, f: ImpoundFilter, at: datetime) -> int:
    with db.read() as s:
        return s.execute(select(func.count()).select_from(_query(db, f, at).subquery())).scalar_one()


def impounds_page(db: Database, f: ImpoundFilter, offset: int, limit: int, at: datetime,
                  profile: Profile) -> Page[ImpoundRow]:
    key = SORTS.get(f.sort, Impoundment.impounded_at)
    order = [key.desc() if f.descending else key.asc(),
             Impoundment.id.desc() if f.descending else Impoundment.id.asc()]
    with db.read() as s:
        rows = s.execute(_query(db, f, at).order_by(*order).offset(offset).limit(limit)).all()
    out = []
    for (imp_id, kind, disp_at, name, species, breed, colour, impounded_at, _custody,
         last_claim, others_from, owner, kennel) in rows:
        if kind:
            status = DISPOSITIONS[kind]
            end = disp_at
        else:
            status = "Adoptable" if at >= others_from else "On hold"
            end = max(at, impounded_at)
        animal = ", ".join(x for x in (name or "(no name)", breed, colour) if x)
        out.append(ImpoundRow(imp_id, status, animal, species, impounded_at,
                              boarding_days(impounded_at, end, profile), last_claim, owner,
                              kennel))
    return Page(offset=offset, rows=tuple(out))


__all__ = ["STATUSES", "ImpoundFilter", "count_impounds", "impounds_page", "and_"]
