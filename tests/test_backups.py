"""Backups: the rotation, the files' permissions from the first byte, a damaged source."""

from __future__ import annotations

import os
import random
import sqlite3
import stat
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from fieldops import backups
from fieldops.backups import (
    ROTATION_MAX,
    BackupError,
    DamagedDatabaseError,
    keep_backups,
    list_backups,
    make_backup,
    newest_backup,
)
from fieldops.db.engine import Database

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)
ZONES = [UTC, timezone(timedelta(hours=-5)), timezone(timedelta(hours=10))]

instants = st.datetimes(
    min_value=datetime(2024, 1, 1), max_value=datetime(2027, 6, 1), timezones=st.just(UTC)
)


@settings(max_examples=300, deadline=None)
@given(st.lists(instants, max_size=120), instants, st.sampled_from(ZONES))
def test_rotation_keeps_the_newest_at_most_23_and_one_per_slot(taken, now, tz):
    kept = keep_backups(taken, now, tz)
    assert kept <= set(taken)
    assert len(kept) <= ROTATION_MAX == 23
    if taken:
        assert max(taken) in kept  # never the newest
    assert keep_backups(kept, now, tz) == kept  # rotating again deletes nothing more
    today = now.astimezone(tz).date()

    def local(t: datetime) -> date:
        return min(t.astimezone(tz).date(), today)

    for k in range(7):  # each of the last 7 days that has a backup keeps its newest
        day = today - timedelta(days=k)
        that_day = [t for t in taken if local(t) == day]
        if that_day:
            assert max(that_day) in kept
    for k in range(12):  # and each of the last 12 months
        y, m = today.year, today.month - k
        while m < 1:
            y, m = y - 1, m + 12
        month = [t for t in taken if (local(t).year, local(t).month) == (y, m)]
        if month:
            assert max(month) in kept
    for k in range(4):  # and each of the last 4 ISO weeks
        week = (today - timedelta(weeks=k)).isocalendar()[:2]
        that_week = [t for t in taken if local(t).isocalendar()[:2] == week]
        if that_week:
            assert max(that_week) in kept


def test_a_year_of_daily_backups_rotates_down_to_its_slots():
    days = [NOW - timedelta(days=k) for k in range(400)]
    kept = keep_backups(days, NOW)
    # 7 days (Nov 25 - Dec 1); the weeks of Nov 16 and Nov 9 add their Sundays; the
    # months January to October add their last days (December's and November's are daily).
    assert len(kept) == 7 + 2 + 10
    assert datetime(2026, 11, 15, 15, 0, tzinfo=UTC) in kept
    assert datetime(2026, 1, 31, 15, 0, tzinfo=UTC) in kept
    assert datetime(2025, 12, 31, 15, 0, tzinfo=UTC) not in kept  # thirteen months back


def _people_db(tmp_path, sqlite_template, name="fieldops.db", rows=3) -> Database:
    import shutil

    path = tmp_path / name
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    with db.engine.begin() as conn:
        for i in range(rows):
            conn.execute(
                text(
                    "INSERT INTO clinic (name, address, phone, licensed, created_at, "
                    "updated_at, version) VALUES (:n, '', '', 1, '2026-01-01', '2026-01-01', 1)"
                ),
                {"n": f"Clinic {i}"},
            )
    return db


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_backup_is_0600_from_its_first_byte_and_leaves_no_journal(
    tmp_path, sqlite_template, monkeypatch
):
    db = _people_db(tmp_path, sqlite_template, rows=200)
    seen: list[tuple[str, int]] = []
    folder = tmp_path / "backups"

    def look(status, remaining, total):
        for entry in folder.iterdir():
            seen.append((entry.name, _mode(entry)))

    monkeypatch.setattr(backups, "COPY_PAGES", 4)  # many steps: the folder is seen mid-copy
    monkeypatch.setattr(backups, "_copying", look)
    old = os.umask(0o022)  # the usual umask, under which SQLite makes files 0644
    try:
        made = make_backup(db_path(db), now=NOW)
    finally:
        os.umask(old)
    assert len(seen) > 3 and all(name.endswith(".part") for name, _ in seen)
    assert {mode for _, mode in seen} == {0o600}
    assert not any("journal" in n or n.endswith(("-wal", "-shm")) for n, _ in seen)
    assert [p.name for p in folder.iterdir()] == [made.path.name]
    assert _mode(made.path) == 0o600 and _mode(folder) == 0o700
    con = sqlite3.connect(made.path)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert con.execute("SELECT count(*) FROM clinic").fetchone() == (200,)
    con.close()
    db.dispose()


def db_path(db: Database):
    from fieldops.db.engine import sqlite_file

    path = sqlite_file(db.url)
    assert path is not None
    return path


def test_backup_includes_commits_still_in_the_write_ahead_log(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    keep = db.engine.connect()  # an open connection: nothing is checkpointed into the file
    assert (tmp_path / "fieldops.db-wal").stat().st_size > 0
    made = make_backup(db_path(db), now=NOW)
    keep.close()
    con = sqlite3.connect(made.path)
    assert con.execute("SELECT count(*) FROM clinic").fetchone() == (3,)
    con.close()
    db.dispose()


def test_rotation_deletes_only_what_it_does_not_keep_and_newest_backup_finds_the_last(
    tmp_path, sqlite_template
):
    db = _people_db(tmp_path, sqlite_template)
    path = db_path(db)
    stranger = tmp_path / "backups" / "notes.db"
    for k in range(40, -1, -1):  # 41 days of daily backups, oldest first
        make_backup(path, now=NOW - timedelta(days=k))
        stranger.write_text("not ours")
    taken = [b.taken_at for b in list_backups(tmp_path / "backups", "fieldops")]
    assert set(taken) == keep_backups(taken, NOW) and len(taken) <= 23
    assert stranger.exists()  # a file not named as a backup is never deleted
    newest = newest_backup(path)
    assert newest is not None and newest.name == "fieldops-20261201T150000Z.db"
    db.dispose()


def test_a_copy_abandoned_by_a_killed_process_is_cleared_at_the_next_backup(
    tmp_path, sqlite_template
):
    import subprocess
    import sys

    db = _people_db(tmp_path, sqlite_template)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    folder = tmp_path / "backups"
    folder.mkdir()
    abandoned = folder / f".fieldops-20261130T090000Z.db.{int(dead.stdout)}.part"
    abandoned.write_bytes(b"half a copy")
    made = make_backup(db_path(db), now=NOW)
    assert [p.name for p in folder.iterdir()] == [made.path.name]
    db.dispose()


def test_a_clock_set_back_deletes_nothing(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    path = db_path(db)
    for k in range(10, -1, -1):
        make_backup(path, now=NOW - timedelta(days=k))
    before = list_backups(tmp_path / "backups", "fieldops")
    make_backup(path, now=NOW - timedelta(days=3 * 365))  # a clock three years behind
    after = list_backups(tmp_path / "backups", "fieldops")
    assert {b.path for b in before} < {b.path for b in after} and len(after) == len(before) + 1
    db.dispose()


def test_two_backups_in_one_second_both_exist_and_the_later_is_newest(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    first = make_backup(db_path(db), now=NOW)
    second = make_backup(db_path(db), now=NOW)
    assert first.path != second.path and second.path.exists()
    assert newest_backup(db_path(db)) == second.path
    db.dispose()


def test_a_damaged_database_is_not_copied_and_good_backups_stay(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template, rows=300)
    path = db_path(db)
    good = [make_backup(path, now=NOW - timedelta(days=k)).path for k in (9, 2, 1)]
    db.dispose()
    _damage(path)
    with pytest.raises(DamagedDatabaseError) as refused:
        make_backup(path, now=NOW)
    assert refused.value.newest == good[-1] and str(good[-1]) in str(refused.value)
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == sorted(p.name for p in good)


def test_a_broken_reference_is_damage_too(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    db.dispose()
    con = sqlite3.connect(db_path(db))
    con.execute("PRAGMA foreign_keys=OFF")
    con.execute(
        "INSERT INTO person (full_name, sort_name, address, city, state, postal_code, in_city, "
        "phone, search_phone, email, is_veterinarian, clinic_id, notes, created_at, updated_at, "
        "version) "
        "VALUES ('X', 'x', '', '', 'XX', '', 1, '', '', '', 0, 999, '', '2026-01-01', "
        "'2026-01-01', 1)"
    )
    con.commit()
    con.close()
    with pytest.raises(DamagedDatabaseError, match="broken reference"):
        make_backup(db_path(db), now=NOW)
    assert not (tmp_path / "backups").exists() or not list((tmp_path / "backups").iterdir())


def test_a_folder_that_cannot_be_written_is_said_and_leaves_nothing(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(BackupError, match="not there"):
        make_backup(db_path(db), to=blocked / "inner")
    if os.geteuid() != 0:  # (root may write anywhere)
        blocked.unlink()
        blocked.mkdir(mode=0o500)  # a folder one may not write in
        try:
            with pytest.raises(BackupError, match="could be written"):
                make_backup(db_path(db), to=blocked)
        finally:
            blocked.chmod(0o700)
        assert list(blocked.iterdir()) == []
    db.dispose()


def test_a_chosen_folder_that_is_gone_is_not_made_again(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    unmounted = tmp_path / "mnt" / "nas"
    with pytest.raises(BackupError, match="not there"):
        make_backup(db_path(db), to=unmounted)
    assert not (tmp_path / "mnt").exists()
    db.dispose()


def test_daily_backup_is_made_once_a_day(tmp_path, sqlite_template):
    db = _people_db(tmp_path, sqlite_template)
    path = db_path(db)
    assert backups.daily_backup(path, now=NOW, tz=UTC) is not None
    assert backups.daily_backup(path, now=NOW + timedelta(hours=5), tz=UTC) is None
    assert backups.daily_backup(path, now=NOW + timedelta(days=1), tz=UTC) is not None
    assert len(list_backups(tmp_path / "backups", "fieldops")) == 2
    db.dispose()


def _damage(path) -> None:
    """4 KB of noise in the middle of the file, as issue 13 found it."""
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size // 2 - (size // 2) % 4096)
        f.write(random.Random(13).randbytes(4096))  # the same noise every run
