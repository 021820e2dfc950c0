"""Backups of a SQLite database: making them, keeping a rotation, and finding the newest.

A backup is a copy made with SQLite's online backup API (a file copy of a live
WAL database misses every commit still in the write-ahead log), taken

* at the first start of each day (``daily_backup``, from ``open_database``),
* before every migration (``backup_before_upgrade``, from ``fieldops.db.migrate``),
* when someone asks (``fieldops backup``, "Back up now" in Administration).

Where: the folder set in Administration (the ``backup_folder`` app setting), else
``backups/`` beside the database. Names: ``<stem>-<YYYYmmddTHHMMSS>Z.db`` (a second
one in the same second gets ``-2``, ...), and ``...Z-pre-<revision>.db`` for the copy
taken before an upgrade from ``<revision>``.

Safety of the copy: it is written 0600 from its first byte under a hidden temporary
name, into a connection whose journal is off (no ``-journal`` file beside it while
it is written), checked with ``PRAGMA integrity_check``, flushed to disk, renamed to
its name, and the folder flushed. Before each copy the source gets ``PRAGMA
integrity_check`` and ``PRAGMA foreign_key_check``: a damaged source is NOT copied
and nothing is rotated, so good backups are never pushed out by copies of a damaged
file; ``DamagedDatabaseError`` says so and names the newest backup to restore.

The rotation (``keep_backups``) is said in its docstring; the copies taken before an
upgrade are kept apart from it: the newest ``PRE_UPGRADE_KEPT`` of them stay, whatever
their age (each is the only copy at its older schema).

Nothing here imports Qt, and nothing here opens a database file except through
SQLite (the process's POSIX locks, fieldops/db/engine.py).
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from pathlib import Path

from fieldops.errors import UserError
from fieldops.files import read_only_uri, sync_folder

BACKUP_FOLDER_NAME = "backups"
FOLDER_SETTING_KEY = "backup_folder"
DAILY_KEPT, WEEKLY_KEPT, MONTHLY_KEPT = 7, 4, 12
ROTATION_MAX = DAILY_KEPT + WEEKLY_KEPT + MONTHLY_KEPT
PRE_UPGRADE_KEPT = 3
COPY_PAGES = 1024  # pages copied per step, so a large copy does not hold the source long
_STAMP = "%Y%m%dT%H%M%S"


class BackupError(UserError):
    """A backup could not be made; the message says why and what to do."""


class DamagedDatabaseError(BackupError):
    """The database failed its integrity or foreign-key check, so it was not copied."""

    code = "damaged"
    failure_kind = "damaged"  # fieldops.failures.DAMAGED (not imported: it imports us)

    def __init__(self, database: Path, problems: list[str], newest: Path | None) -> None:
        self.database = database
        self.problems = problems
        self.newest = newest
        shown = "; ".join(problems[:3]) + (" ..." if len(problems) > 3 else "")
        if newest is not None:
            then = f"The newest backup is {newest}: restore it with 'fieldops restore {newest}'."
        else:
            then = "There is no backup of it to restore; keep the file as it is and get help."
        super().__init__(
            f"{database} is damaged ({shown}), so no backup was made and the existing "
            f"backups were left as they are. {then}"
        )


@dataclass(frozen=True)
class BackupFile:
    """One backup on disk, as its name describes it."""

    path: Path
    taken_at: datetime  # aware, UTC, to the second
    serial: int = 1  # the n-th backup taken in that second
    before_upgrade: str | None = None  # the revision it was taken before upgrading from

    @property
    def size(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0


# --- names and folders ----------------------------------------------------------------


def backup_name(
    stem: str, taken_at: datetime, serial: int = 1, before_upgrade: str | None = None
) -> str:
    """The file name of a backup of the database ``<stem>.db``."""
    name = f"{stem}-{taken_at.astimezone(UTC).strftime(_STAMP)}Z"
    if serial > 1:
        name += f"-{serial}"
    if before_upgrade is not None:
        name += f"-pre-{before_upgrade}"
    return name + ".db"


def parse_backup(path: Path, stem: str) -> BackupFile | None:
    """What a backup's name says; None for a file that is not one of ``stem``'s backups."""
    m = re.fullmatch(
        re.escape(stem) + r"-(\d{8}T\d{6})Z(?:-(\d+))?(?:-pre-([A-Za-z0-9_]+))?\.db", path.name
    )
    if m is None:
        return None
    try:
        taken = datetime.strptime(m.group(1), _STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None
    return BackupFile(path, taken, int(m.group(2) or 1), m.group(3))


def list_backups(folder: Path, stem: str) -> list[BackupFile]:
    """``stem``'s backups in ``folder``, oldest first (an unreadable folder holds none)."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    found = [b for b in (parse_backup(p, stem) for p in entries) if b is not None]
    return sorted(found, key=lambda b: (b.taken_at, b.serial, b.path.name))


def default_backup_folder(database: Path) -> Path:
    """Where a database's backups go unless Administration names another folder."""
    return database.parent / BACKUP_FOLDER_NAME


def configured_backup_folder(database: Path) -> Path | None:
    """The folder set in Administration, read without writing a byte; None when unset.

    A database that cannot be read (missing, damaged, older than the setting) has none.
    """
    if not database.is_file():
        return None
    try:
        con = sqlite3.connect(read_only_uri(database), uri=True)
        try:
            row = con.execute(
                "SELECT value FROM app_setting WHERE key = ?", (FOLDER_SETTING_KEY,)
            ).fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    return Path(row[0]) if row and row[0] else None


def backup_folder(database: Path) -> Path:
    """Where ``database``'s backups go: the folder set in Administration, else the default."""
    return configured_backup_folder(database) or default_backup_folder(database)


def all_backups(database: Path) -> list[BackupFile]:
    """Every backup of ``database`` in its folder and in the default one, oldest first."""
    folders = {backup_folder(database), default_backup_folder(database)}
    found = [b for f in folders for b in list_backups(f, database.stem)]
    return sorted(found, key=lambda b: (b.taken_at, b.serial, b.path.name))


def newest_backup(database: Path) -> Path | None:
    """The most recent backup of ``database`` (its set folder or the default one), or None."""
    found = all_backups(database)
    return found[-1].path if found else None


# --- the rotation ---------------------------------------------------------------------


def keep_backups(taken: Iterable[datetime], now: datetime, tz: tzinfo = UTC) -> set[datetime]:
    """Which backups (by when they were taken) the rotation keeps; the others are deleted.

    Days, ISO weeks and months are calendar ones in ``tz`` (the workstation's zone),
    counted back from ``now``:

    * daily: the newest backup of each of the last 7 days (today included);
    * weekly: the newest of each of the last 4 ISO weeks (this week included);
    * monthly: the newest of each of the last 12 months (this month included);
    * and the newest backup of all, always, even when it is older than all of these.

    A backup stamped after ``now`` (a clock that was ahead) counts as today's, so a
    wrong clock neither loses the newest copy nor makes the rotation grow. One backup
    may fill several slots at once, so at most 23 are kept.
    """
    stamps = set(taken)
    if not stamps:
        return set()
    today = now.astimezone(tz).date()
    days = {today - timedelta(days=k) for k in range(DAILY_KEPT)}
    monday = today - timedelta(days=today.weekday())
    weeks = {_iso_week(monday - timedelta(weeks=k)) for k in range(WEEKLY_KEPT)}
    months = set()
    year, month = today.year, today.month
    for _ in range(MONTHLY_KEPT):
        months.add((year, month))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    best: dict[tuple[str, object], datetime] = {}
    for stamp in stamps:
        day = min(stamp.astimezone(tz).date(), today)
        slots: list[tuple[str, object]] = []
        if day in days:
            slots.append(("day", day))
        if _iso_week(day) in weeks:
            slots.append(("week", _iso_week(day)))
        if (day.year, day.month) in months:
            slots.append(("month", (day.year, day.month)))
        for slot in slots:
            if slot not in best or stamp > best[slot]:
                best[slot] = stamp
    return set(best.values()) | {max(stamps)}


def _iso_week(day: date) -> tuple[int, int]:
    iso = day.isocalendar()
    return iso.year, iso.week


def rotate(folder: Path, stem: str, now: datetime, tz: tzinfo | None = None) -> list[Path]:
    """Delete the backups of ``stem`` in ``folder`` that the rotation does not keep.

    Only files named as this module names them are ever deleted; the newest
    ``PRE_UPGRADE_KEPT`` copies taken before an upgrade are kept apart from the rotation.
    When a backup is stamped more than a day after ``now``, this computer's clock is
    behind (or was ahead): nothing is deleted until the clock is right again, since
    with a wrong "today" the rotation would keep the wrong copies.
    """
    zone = tz or _local_zone()
    found = list_backups(folder, stem)
    rotation = [b for b in found if b.before_upgrade is None]
    upgrades = [b for b in found if b.before_upgrade is not None]
    # Two in one second: the rotation compares instants, so the later serial wins.
    by_instant: dict[datetime, BackupFile] = {}
    for b in rotation:
        by_instant[b.taken_at + timedelta(microseconds=min(b.serial, 999_999))] = b
    if any(t > now + timedelta(days=1) for t in by_instant):
        by_instant = {}  # the clock is wrong: keep every copy of the rotation
    kept = keep_backups(by_instant, now, zone)
    doomed = [b.path for t, b in by_instant.items() if t not in kept]
    doomed += [b.path for b in upgrades[:-PRE_UPGRADE_KEPT]]
    removed = []
    for path in doomed:
        try:
            path.unlink()
            removed.append(path)
        except FileNotFoundError:
            pass
    if removed:
        sync_folder(folder)
    return removed


# --- making one -----------------------------------------------------------------------


def _now() -> datetime:
    """The clock backups are stamped with (tests set it)."""
    return datetime.now(UTC)


def _local_zone() -> tzinfo:
    return datetime.now().astimezone().tzinfo or UTC


def make_backup(
    database: Path,
    *,
    to: Path | None = None,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> BackupFile:
    """Back ``database`` up into its backup folder and rotate it; or once into ``to``.

    A backup into a folder the user names (``to``) is a single copy: nothing in that
    folder is ever deleted. Raises ``DamagedDatabaseError`` (nothing written, nothing
    rotated) or ``BackupError`` (the folder cannot be written; nothing left behind).
    """
    when = now or _now()
    folder = to if to is not None else backup_folder(database)
    made = write_backup(database, folder, taken_at=when)
    if to is None:
        rotate(folder, database.stem, when, tz)
    return made


def backup_before_upgrade(
    database: Path, revision: str | None, *, now: datetime | None = None
) -> BackupFile:
    """The copy taken before upgrading ``database`` from ``revision`` (kept apart)."""
    when = now or _now()
    folder = backup_folder(database)
    made = write_backup(database, folder, taken_at=when, before_upgrade=revision or "empty")
    rotate(folder, database.stem, when)
    return made


def daily_backup(
    database: Path, *, now: datetime | None = None, tz: tzinfo | None = None
) -> BackupFile | None:
    """The first start of the day's backup: made unless one was already taken today."""
    when = now or _now()
    zone = tz or _local_zone()
    today = when.astimezone(zone).date()
    taken = [
        b for b in all_backups(database) if b.before_upgrade is None and b.path.parent.is_dir()
    ]
    if any(b.taken_at.astimezone(zone).date() == today for b in taken):
        return None
    return make_backup(database, now=when, tz=zone)


def write_backup(
    database: Path,
    folder: Path,
    *,
    taken_at: datetime,
    before_upgrade: str | None = None,
) -> BackupFile:
    """Check ``database`` and copy it into ``folder`` safely (the module's docstring says how)."""
    if not database.is_file():
        raise BackupError(f"There is no database at {database} to back up.")
    if folder != default_backup_folder(database) and not folder.is_dir():
        # Only the default folder is made: a chosen one that is missing is most often a
        # drive or share that is not mounted, and a copy made in its place would be lost.
        raise BackupError(
            f"The backup folder {folder} is not there (a drive or network share that is "
            "not connected?); no backup was made. Connect it, or choose another folder "
            "in Administration."
        )
    try:
        src = open_source(database)
    except sqlite3.Error as exc:
        raise DamagedDatabaseError(database, [str(exc)], newest_backup(database)) from None
    try:
        problems = source_problems(src)  # first: a damaged file leaves not even a folder
        if problems:
            raise DamagedDatabaseError(database, problems, newest_backup(database))
        temp, dest, serial = _new_temp(database, folder, taken_at, before_upgrade)
        try:
            _copy(src, temp)
            _fsync_file(temp)
            os.replace(temp, dest)
            sync_folder(folder)
        except sqlite3.Error as exc:
            temp.unlink(missing_ok=True)
            raise BackupError(
                f"The backup of {database} into {folder} failed ({exc}); no backup was made."
            ) from None
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise BackupError(
                f"The backup of {database} into {folder} failed ({exc.strerror or exc}); "
                "no backup was made. A full disk or a removed drive does this."
            ) from None
        except BaseException:
            temp.unlink(missing_ok=True)
            raise
    finally:
        src.close()
    return BackupFile(dest, taken_at.astimezone(UTC).replace(microsecond=0), serial, before_upgrade)


def _new_temp(
    database: Path, folder: Path, taken_at: datetime, before_upgrade: str | None
) -> tuple[Path, Path, int]:
    """The hidden temporary file (made 0600, empty), the backup's name, and its serial."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise BackupError(
            f"The backup folder {folder} cannot be created ({exc.strerror or exc}); "
            "no backup was made. Choose another folder in Administration."
        ) from None
    _remove_abandoned_parts(folder, database.stem)
    serial = 1
    while True:
        name = backup_name(database.stem, taken_at, serial, before_upgrade)
        dest = folder / name
        if not dest.exists():
            break
        serial += 1
    temp = folder / f".{name}.{os.getpid()}.part"
    try:
        fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.close(fd)
    except OSError as exc:
        raise BackupError(
            f"No backup could be written in {folder} ({exc.strerror or exc}); "
            "check that the folder exists and that you may write in it."
        ) from None
    return temp, dest, serial


def _remove_abandoned_parts(folder: Path, stem: str) -> None:
    """Delete the temporary files of copies whose process died mid-copy (they are 0600)."""
    for part in folder.glob(f".{stem}-*.part"):
        try:
            pid = int(part.name.rsplit(".", 2)[-2])
        except ValueError:
            continue
        if pid != os.getpid() and not _alive(pid):
            part.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or a system that cannot say: alive
        return True
    return True


def _copy(src: sqlite3.Connection, temp: Path) -> None:
    dst = sqlite3.connect(temp)
    try:
        dst.execute("PRAGMA journal_mode=OFF")  # no -journal beside the copy
        src.backup(dst, pages=COPY_PAGES, progress=_copying)
        # The copy is a plain file: opening it later needs no -wal or -shm.
        dst.execute("PRAGMA journal_mode=DELETE")
        copied = [r[0] for r in dst.execute("PRAGMA integrity_check")]
        if copied != ["ok"]:
            raise sqlite3.DatabaseError(f"the copy failed its check: {copied[0]}")
    finally:
        dst.close()


def _copying(status: int, remaining: int, total: int) -> None:
    """Called between the copy's steps (tests look at the folder here)."""


def refuse_if_damaged(database: Path) -> None:
    """Raise ``DamagedDatabaseError`` (naming the newest backup) when the checks fail."""
    try:
        src = open_source(database)
    except sqlite3.Error as exc:
        raise DamagedDatabaseError(database, [str(exc)], newest_backup(database)) from None
    try:
        problems = source_problems(src)
    finally:
        src.close()
    if problems:
        raise DamagedDatabaseError(database, problems, newest_backup(database))


def open_source(database: Path) -> sqlite3.Connection:
    """A connection to the live database that never creates it (read-only when it must be)."""
    uri = database.absolute().as_uri()
    try:
        return sqlite3.connect(f"{uri}?mode=rw", uri=True, timeout=10)
    except sqlite3.OperationalError:
        return sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=10)


def source_problems(con: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA integrity_check`` and ``foreign_key_check`` find; empty when sound."""
    try:
        result = [str(r[0]) for r in con.execute("PRAGMA integrity_check")]
        problems = [] if result == ["ok"] else [f"integrity: {r}" for r in result]
        for row in con.execute("PRAGMA foreign_key_check"):
            problems.append(f"broken reference: {row[0]} row {row[1]} -> {row[2]}")
    except sqlite3.DatabaseError as exc:  # "database disk image is malformed"
        return [str(exc)]
    return problems


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
