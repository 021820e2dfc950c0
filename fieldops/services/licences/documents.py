"""The licence documents as PDF bytes, and the renewals written to a file (audited:
the letters and the list carry owners' names and addresses)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from fieldops.db.engine import Database
from fieldops.errors import ValidationError
from fieldops.files import write_whole_file
from fieldops.modules import ReportTable
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile, format_day, licence_on_sale, local_date
from fieldops.services.context import Actor, audit, now
from fieldops.services.licences.renewals import (
    CSV_COLUMNS,
    RenewalRow,
    csv_rows,
    households,
    non_compliance,
    renewals_due,
)
from fieldops.services.licences.views import get_licence


def certificate_pdf(db: Database, licence_id: int, profile: Profile, printed_by: str = "") -> bytes:
    """The licence certificate with its tag receipt."""
    from fieldops.reports.licence import LicenceCertificate

    view = get_licence(db, licence_id)
    return LicenceCertificate(
        view,
        jurisdiction=profile.name,
        tz=profile.timezone,
        printed_at=now(),
        printed_by=printed_by,
    ).render()


def letters_pdf(
    rows: tuple[RenewalRow, ...], year: int, day: date, profile: Profile, printed_by: str = ""
) -> bytes:
    """The reminder letters for ``rows``: one page a household."""
    from fieldops.reports.licence import RenewalLetters

    return RenewalLetters(
        households(rows),
        year=year,
        day=day,
        late_fee=profile.licence_late_fee,
        jurisdiction=profile.name,
        tz=profile.timezone,
        printed_at=now(),
        printed_by=printed_by,
    ).render()


@dataclass(frozen=True)
class Written:
    path: Path
    dogs: int
    households: int
    fmt: str


@requires(Permission.LICENCES)
def export_renewals(
    db: Database,
    actor: Actor,
    year: int,
    path: str | Path,
    profile: Profile,
    *,
    day: date | None = None,
    late_only: bool = False,
) -> Written:
    """Write the renewal letters (``.pdf``) or the list (``.csv``) for ``year``; with
    ``late_only`` the non-compliance list (dogs past the late-fee day). The file and
    its audit event are written together or not at all."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".pdf", ".csv"):
        raise ValidationError({"file": "The file must end in .pdf (letters) or .csv (the list)."})
    if isinstance(year, bool) or not isinstance(year, int) or not 1990 <= year <= 2199:
        raise ValidationError({"year": "Give the licence year, e.g. 2026."})
    asked_day = day
    day = day or local_date(now(), profile)
    on_sale = licence_on_sale(year)
    if day < on_sale:
        # Nothing to quote yet: the letters' fees and due day would be a guess. The day
        # given is named when one was given, else the year asked is too far ahead.
        if asked_day is None:
            raise ValidationError(
                {
                    "year": f"A {year} licence is sold from {format_day(on_sale)}: "
                    f"no renewal letter or list for {year} can be written today, "
                    f"{format_day(day)}."
                }
            )
        raise ValidationError(
            {
                "day": f"A {year} licence is sold from {format_day(on_sale)}; "
                f"{format_day(day)} is before that day: give a later day."
            }
        )
    rows = (non_compliance if late_only else renewals_due)(db, year, day, profile)
    if suffix == ".pdf":
        content = letters_pdf(rows, year, day, profile, actor.full_name or actor.username)
    else:
        from fieldops.services.reports_run import csv_bytes

        content = csv_bytes(ReportTable(CSV_COLUMNS, csv_rows(rows)))
    with db.write() as s:
        audit(
            s,
            actor,
            "renewals_exported",
            "dog_licence",
            0,
            after={
                "year": year,
                "day": day,
                "late_only": late_only,
                "format": suffix[1:],
                "dogs": len(rows),
                "file": Path(path).name,
            },
        )
        written = write_whole_file(path, content)
    return Written(written, len(rows), len(households(rows)), suffix[1:])
