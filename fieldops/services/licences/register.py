"""The dog licence register for a period (``fieldops report licence-register``): every
licence issued on the period's local days, in one read; the public-records copy
withholds the owners' addresses."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from fieldops.db.cancel import Cancelled
from fieldops.db.models import Animal, DogLicence, Person
from fieldops.errors import Collector
from fieldops.modules import ReportOutput, ReportRequest, ReportTable, Withheld
from fieldops.rules import start_of_local_day, to_local
from fieldops.services.licences.views import ORIGIN_WORDS, STATUS_WORDS
from fieldops.services.people import format_address

COLUMNS = (
    "Issued",
    "Year",
    "Tag",
    "Kind",
    "Status",
    "Dog",
    "Owner",
    "Address",
    "Fee",
    "Late fee",
    "Total",
    "Paid",
    "Receipt",
    "Rabies certificate",
)
MAX_PERIOD_DAYS = 366
ADDRESSES = Withheld("the owners' addresses", "personal contact details of private persons")


def build_register(request: ReportRequest) -> ReportOutput:
    from fieldops.reports.licence import licence_register_pdf

    c = Collector()
    c.check(request.end >= request.start, "period_end", "The period cannot end before it starts.")
    c.check(
        (request.end - request.start).days < MAX_PERIOD_DAYS,
        "period_end",
        "Print at most a year at a time.",
    )
    c.raise_if_any()
    profile = request.profile
    lo = start_of_local_day(request.start, profile)
    hi = start_of_local_day(request.end + timedelta(days=1), profile)
    with request.db.read() as s:
        found = s.execute(
            select(DogLicence, Animal.name, Animal.breed, Person)
            .join(Animal, Animal.id == DogLicence.animal_id)
            .join(Person, Person.id == DogLicence.owner_id)
            .where(DogLicence.issued_at >= lo, DogLicence.issued_at < hi)
            .order_by(DogLicence.issued_at, DogLicence.id)
        ).all()
    if request.cancelled():
        raise Cancelled()
    rows = []
    for lic, name, breed, owner in found:
        fee = f"{lic.rate:.2f}" + (" (half)" if lic.half_rate else "")
        rows.append(
            (
                f"{to_local(lic.issued_at, profile):%Y-%m-%d %H:%M}",
                str(lic.licence_year),
                lic.tag_number,
                ORIGIN_WORDS[lic.origin],
                STATUS_WORDS[lic.status] + (f": {lic.void_reason}" if lic.void_reason else ""),
                " · ".join(x for x in (name, breed) if x),
                owner.full_name,
                "withheld"
                if request.redacted
                else format_address(owner.address, owner.city, owner.state, owner.postal_code),
                fee,
                f"{lic.late_fee:.2f}",
                f"{lic.total:.2f}",
                f"{lic.paid_amount:.2f} {lic.payment_method}",
                lic.receipt_number,
                lic.rabies_certificate,
            )
        )
    withheld = (ADDRESSES,) if request.redacted else ()
    table = ReportTable(COLUMNS, tuple(rows), withheld)
    return ReportOutput(table, licence_register_pdf(table, request))
