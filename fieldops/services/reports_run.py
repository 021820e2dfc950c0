"""Running a record report: find it by name, build it, audit it, export it.

Every module's reports come through the seam (``fieldops.modules.report_kinds``);
the command line and the Reports page both run them through here, so both
audit the same way. Producing a report reads private parts (names, addresses)
and is audited (issue 12): ``report:produced`` when it is built for the screen,
``report:exported`` when it is written to a file (name, period, redacted or
not, format). An export is written whole or not at all, and its audit event is
committed only once the file is in place.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import BinaryIO, TextIO

from fieldops.db.engine import Database
from fieldops.db.flush_net import bad_character
from fieldops.errors import Collector, UserError, ValidationError
from fieldops.files import NAME_MAX, PRIVATE_FILE, part_path, sync_folder
from fieldops.modules import ReportKind, ReportOutput, ReportRequest, ReportTable, report_kinds
from fieldops.permissions import Permission, requires
from fieldops.rules import Profile
from fieldops.services import validate as v
from fieldops.services.audit import audit_head
from fieldops.services.context import Actor, audit, now

ENTITY = "report"
FORMATS = {".pdf": "pdf", ".csv": "csv"}
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# The longest file name (not path) the usual file systems take (ext4, NTFS, APFS: 255).
FILE_NAME_LIMIT = NAME_MAX
PRINTER_LIMIT = 200


def check_file_name(path: str | Path, field: str = "file") -> None:
    """Refuse a path no file system or PDF keeps as typed: NUL, control or broken characters,
    or a file name longer than ``FILE_NAME_LIMIT``."""
    problem = bad_character(str(path))
    if problem is not None:
        raise ValidationError({field: f"The file name {problem}; choose another name."})
    if len(Path(path).name) > FILE_NAME_LIMIT:
        raise ValidationError(
            {field: f"The file name is too long (at most {FILE_NAME_LIMIT} characters)."}
        )


def report_names() -> tuple[str, ...]:
    """Every name a report answers to (names, then aliases), for choices and help."""
    kinds = report_kinds()
    return (*(k.name for k in kinds), *(a for k in kinds for a in k.aliases))


def find_report(name: str) -> ReportKind:
    """The report called ``name`` (or an alias of it); refused in words otherwise."""
    for kind in report_kinds():
        if name == kind.name or name in kind.aliases:
            return kind
    known = ", ".join(k.name for k in report_kinds()) or "none installed"
    raise UserError(f"There is no report called {name!r}; the reports are: {known}.")


def file_format(path: str | Path) -> str:
    """ "pdf" or "csv", by the file's suffix; anything else is refused in words."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UserError(
            f"{Path(path).name}: a report is saved as .pdf or .csv, not "
            f"{suffix or 'a file without a suffix'}."
        )
    return FORMATS[suffix]


@dataclass(frozen=True)
class Produced:
    """A built report and what it was asked for (what the export and its audit need)."""

    kind: ReportKind
    start: date
    end: date
    redacted: bool
    output: ReportOutput


@requires(Permission.REPORTS)
def produce(
    db: Database,
    actor: Actor,
    name: str,
    start: date,
    end: date,
    profile: Profile,
    *,
    redacted: bool = False,
    printed_at: datetime | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] = lambda done, total: None,
    audited: bool = True,
) -> Produced:
    """Build the report called ``name`` for the period (local dates, both included).

    Audited as ``report:produced`` unless ``audited`` is False (an export audits
    itself as ``report:exported`` when the file is written). Raises the report's
    ``ValidationError`` for a bad period and ``Cancelled`` when ``cancelled()``
    turns True between its steps.
    """
    c = Collector()
    # The fields ReportKind's contract names (module_reports), as the Reports page and
    # the command line's --from/--to know them.
    for field, day, label in (
        ("period_start", start, "The first day"),
        ("period_end", end, "The last day"),
    ):
        if day is None:  # v.day lets a blank through: a period needs both of its days
            c.add(field, f"{label} of the period is required.")
        else:
            v.day(c, field, day, label)
    v.instant(c, "printed_at", printed_at, "The time printed")
    c.raise_if_any()
    kind = find_report(name)
    request = ReportRequest(
        db=db,
        start=start,
        end=end,
        profile=profile,
        printed_at=printed_at or now(),
        printed_by=actor.full_name or actor.username,
        redacted=redacted,
        audit_head=audit_head(db),
        cancelled=cancelled,
        progress=progress,
    )
    out = Produced(kind, start, end, redacted, kind.build(request))
    if audited:
        with db.write() as s:
            audit(s, actor, "produced", ENTITY, 0, after=_what(out, "preview"))
    return out


@requires(Permission.REPORTS)
def export(
    db: Database,
    actor: Actor,
    produced: Produced,
    path: str | Path,
    *,
    check_path: Callable[[Path], None] | None = None,
) -> Path:
    """Write a built report to ``path`` as PDF or CSV (by its suffix), all or nothing,
    and audit it as ``report:exported``. The event is committed with the file in
    place: a failed write leaves neither a file nor an event. ``check_path`` may
    refuse the place first (the window refuses the database's folder).

    The file is written whole beside its place (a ``.part`` file, flushed to disk)
    before the write lock is taken; under the lock only the event is written and
    the file renamed into place, so a year's register never holds up the saves of
    the staff still working while it is written.
    """
    check_file_name(path)
    fmt = file_format(path)
    if check_path is not None:
        check_path(Path(path))
    target = Path(path)
    part = part_path(target)
    try:
        with _private_file(part) as f:
            if fmt == "pdf":
                f.write(produced.output.pdf)
            else:
                write_csv(produced.output.table, f)
        with db.write() as s:
            audit(
                s,
                actor,
                "exported",
                ENTITY,
                0,
                after={**_what(produced, fmt), "file": target.name},
            )
            os.replace(part, target)  # before the commit: a failed rename writes no event
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise
    sync_folder(target.parent)
    return target


@contextlib.contextmanager
def _private_file(path: Path) -> Iterator[BinaryIO]:
    """A new file only its owner may read, from the first byte (``fieldops.files``),
    flushed to disk when the block ends without an error."""
    fd = os.open(
        path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), PRIVATE_FILE
    )
    with os.fdopen(fd, "wb") as f:
        yield f
        f.flush()
        os.fsync(f.fileno())


@requires(Permission.REPORTS)
def record_printed(db: Database, actor: Actor, produced: Produced, printer: str) -> None:
    """Audit a report sent to a printer (``report:exported``, format "print")."""
    c = Collector()
    v.optional_len(c, "printer", printer or "", "The printer's name", PRINTER_LIMIT)
    c.raise_if_any()
    with db.write() as s:
        audit(
            s,
            actor,
            "exported",
            ENTITY,
            0,
            after={**_what(produced, "print"), "printer": printer or "default"},
        )


def _what(p: Produced, fmt: str) -> dict[str, object]:
    return {
        "report": p.kind.name,
        "period_start": p.start.isoformat(),
        "period_end": p.end.isoformat(),
        "redacted": p.redacted,
        "format": fmt,
        "rows": len(p.output.table.rows),
    }


# ------------------------------------------------------------------------------ CSV


def neutralize(cell: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading apostrophe."""
    return f"'{cell}" if cell.startswith(FORMULA_STARTS) else cell


def csv_text(table: ReportTable) -> str:
    """The report's rows as CSV text: the header, then the same rows the PDF prints."""
    buffer = io.StringIO(newline="")
    _write_rows(table, buffer)
    return buffer.getvalue()


def csv_bytes(table: ReportTable) -> bytes:
    """UTF-8 with a byte-order mark, so a spreadsheet reads accented names right."""
    return csv_text(table).encode("utf-8-sig")


def write_csv(table: ReportTable, f: BinaryIO) -> None:
    """``csv_bytes(table)`` written to ``f`` as the rows go: a year's register is never
    held whole as text."""
    text = io.TextIOWrapper(f, encoding="utf-8-sig", newline="", write_through=False)
    try:
        _write_rows(table, text)
        text.flush()
    finally:
        text.detach()  # ``f`` stays open: its owner closes it


def _write_rows(table: ReportTable, out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([neutralize(c) for c in table.columns])
    for row in table.rows:
        writer.writerow([neutralize(str(c)) for c in row])


def default_file_name(kind: ReportKind, start: date, end: date, fmt: str, redacted: bool) -> str:
    public = "-public" if redacted else ""
    return f"{kind.name}{public}-{start.isoformat()}-to-{end.isoformat()}.{fmt}"
