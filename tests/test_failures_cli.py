"""Issue 13, "Errors" and "Damage": every environment failure the ``fieldops`` command
meets is one line saying what happened and what to do, with its own exit status, and
nothing is lost, changed or created. Each test is the real command in a subprocess."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from accounts_support import login_as_demo_supervisor
from test_cli_errors import one_line_error, run, tree

from fieldops.backups import backup_name
from fieldops.db.engine import BUSY_TIMEOUT_MS
from fieldops.failures import (
    DAMAGED,
    DISK_FULL,
    EXIT_CODES,
    LOCKED,
    MISSING,
    NOT_A_DATABASE,
    PERMISSION,
    READ_ONLY,
    TOO_NEW,
    TOO_OLD,
)

CHECK, DUE, STAFF = ["check"], ["due"], ["staff"]
REPORT = ["report", "register", "--from", "2026-01-01", "--to", "2026-01-31", "--out"]
ALL = [CHECK, DUE, [*REPORT, "{tmp}/r.pdf"], STAFF, ["demo", "--seed", "1", "--people", "3"]]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def ids(command: list[str]) -> str:
    return " ".join(command[:2])


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    path = folder / "d.db"
    result = run("--db", str(path), "demo", "--seed", "2", "--people", "40", tmp=folder)
    assert result.returncode == 0, result.stderr
    login_as_demo_supervisor(path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the whole database in the one file
    con.close()
    return path


@pytest.fixture
def copy(demo_db, tmp_path) -> Path:
    """A private copy of the demo database, alone in its folder."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "d.db"
    shutil.copyfile(demo_db, path)
    return path


def fails_with(result: subprocess.CompletedProcess, kind: str) -> str:
    line = one_line_error(result)
    assert result.returncode == EXIT_CODES[kind], (kind, line)
    return line


def test_every_kind_has_its_own_exit_status():
    codes = list(EXIT_CODES.values())
    assert len(set(codes)) == len(codes)
    assert EXIT_CODES["user"] == 1 and EXIT_CODES["bug"] == 70
    assert not {2, 130, 141} & set(codes)  # usage, interrupted, closed pipe stay theirs


def test_the_readme_documents_every_exit_status():
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    for kind, code in EXIT_CODES.items():
        assert f"| {code} | `{kind}` |" in readme, kind


# -- not a database, missing places ------------------------------------------------------


@pytest.mark.parametrize("command", [CHECK, STAFF], ids=ids)
@pytest.mark.parametrize("what", ["text file", "folder"])
def test_a_path_that_is_not_a_database_has_its_exit_status(tmp_path, command, what):
    target = tmp_path / "data.db"
    if what == "folder":
        target.mkdir()
    else:
        target.write_text("not a database\n" * 100)
    before = tree(tmp_path)
    line = fails_with(run("--db", str(target), *command, tmp=tmp_path), NOT_A_DATABASE)
    assert str(target) in line
    assert tree(tmp_path) == before


@pytest.mark.parametrize("command", ALL, ids=ids)
def test_a_database_in_a_missing_folder_is_refused_by_every_command(tmp_path, command):
    (tmp_path / "keep.txt").write_text("x")
    before = tree(tmp_path)
    target = tmp_path / "no-such-folder" / "fieldops.db"
    line = fails_with(run("--db", str(target), *command, tmp=tmp_path), MISSING)
    assert str(target.parent) in line
    assert tree(tmp_path) == before  # no folder, no empty database, no administrator


@pytest.mark.parametrize("command", ALL, ids=ids)
def test_a_dangling_link_is_refused_by_every_command(tmp_path, command):
    link = tmp_path / "fieldops.db"
    link.symlink_to(tmp_path / "moved-away.db")
    before = tree(tmp_path)
    line = fails_with(run("--db", str(link), *command, tmp=tmp_path), MISSING)
    assert "moved-away.db" in line
    assert not (tmp_path / "moved-away.db").exists()
    assert tree(tmp_path) == before


def test_the_default_database_is_still_made_with_its_folder_on_first_run(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path / "home-data"), "FIELDOPS_DATABASE_URL": ""}
    result = run("staff", tmp=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "home-data" / "FieldOps" / "fieldops.db").is_file()


# -- schema versions ---------------------------------------------------------------------


def _set_revision(path: Path, revision: str) -> None:
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = ?", (revision,))
    con.commit()
    con.close()


@pytest.mark.parametrize("command", [CHECK, STAFF], ids=ids)
def test_a_newer_schema_has_its_exit_status(copy, command):
    _set_revision(copy, "from_the_future")
    before = tree(copy.parent)
    assert "newer" in fails_with(run("--db", str(copy), *command, tmp=copy.parent), TOO_NEW)
    assert tree(copy.parent) == before


def test_an_older_schema_has_its_exit_status_for_a_command_that_only_reads(copy):
    from fieldops.db.migrate import head_revision, script_directory

    older = script_directory().get_revision(head_revision()).down_revision
    _set_revision(copy, older)
    before = tree(copy.parent)
    assert "older" in fails_with(run("--db", str(copy), *CHECK, tmp=copy.parent), TOO_OLD)
    assert tree(copy.parent) == before


# -- damage ------------------------------------------------------------------------------


def _damage(path: Path) -> None:
    """4 KB of noise in the middle of the file, as a failing disk leaves it."""
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.seek(size // 2)
        f.write(os.urandom(4096))


def test_check_on_a_damaged_file_says_so_and_names_the_backup_to_restore(copy):
    backups = copy.parent / "backups"
    backups.mkdir()
    backup = backups / backup_name("d", datetime(2026, 11, 30, 18, tzinfo=UTC))
    shutil.copyfile(copy, backup)
    _damage(copy)
    before = tree(copy.parent)
    line = fails_with(run("--db", str(copy), *CHECK, tmp=copy.parent), DAMAGED)
    assert "damaged" in line and str(backup) in line
    assert tree(copy.parent) == before


@pytest.mark.parametrize("command", [STAFF, ["demo", "--seed", "1", "--people", "3"]], ids=ids)
def test_a_writing_command_refuses_a_damaged_file_before_touching_it(copy, command):
    _damage(copy)
    before = tree(copy.parent)
    line = fails_with(run("--db", str(copy), *command, tmp=copy.parent), DAMAGED)
    assert "no backup" in line  # and says so when there is none to restore
    assert tree(copy.parent) == before


def test_check_on_an_intact_read_only_file_reports_no_damage(copy):
    copy.chmod(0o444)
    before = tree(copy.parent)
    result = run_as_other(["--db", str(copy), *CHECK], tmp=copy.parent, owner_of=None)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert "damaged" not in result.stdout + result.stderr
    assert tree(copy.parent) == before


# -- permissions and read-only places ----------------------------------------------------


def _can_drop_privileges() -> bool:
    return shutil.which("setpriv") is not None


def run_as_other(
    args: list[str], *, tmp: Path, owner_of: Path | None
) -> subprocess.CompletedProcess:
    """The command as an ordinary user would meet the files' permissions.

    As root (CI), root would read anything: the child keeps uid 0 but loses the
    capabilities that bypass file permissions, so the kernel applies the modes as
    to anyone else, and ``owner_of`` is given to uid 65534 (another user).
    Otherwise the file is simply made unreadable to us."""
    if owner_of is not None:
        if IS_ROOT:
            os.chown(owner_of, 65534, 65534)
            owner_of.chmod(0o600)
        else:
            owner_of.chmod(0o000)
    if not IS_ROOT:
        return run(*args, tmp=tmp)
    if not _can_drop_privileges():
        pytest.skip("running as root without setpriv: cannot meet file permissions")
    env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state")}
    cmd = [
        "setpriv",
        "--bounding-set=-dac_override,-dac_read_search,-fowner",
        sys.executable,
        "-m",
        "fieldops.cli",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("command", [CHECK, DUE, STAFF], ids=ids)
def test_another_users_private_file_is_refused_as_permission_denied(copy, command):
    before = tree(copy.parent)
    result = run_as_other(["--db", str(copy), *command], tmp=copy.parent, owner_of=copy)
    line = fails_with(result, PERMISSION)
    assert str(copy) in line and "not a FieldOps database" not in line
    copy.chmod(0o600)
    assert tree(copy.parent) == before


def _in_read_only_folder(copy: Path, command: list[str]) -> subprocess.CompletedProcess:
    copy.parent.chmod(0o555)
    try:
        return run_as_other(["--db", str(copy), *command], tmp=copy.parent.parent, owner_of=None)
    finally:
        copy.parent.chmod(0o755)


def test_a_writing_command_refuses_a_read_only_folder(copy):
    before = tree(copy.parent)
    line = fails_with(_in_read_only_folder(copy, STAFF), READ_ONLY)
    assert str(copy.parent) in line
    assert tree(copy.parent) == before


@pytest.mark.parametrize("command", [CHECK, DUE], ids=ids)
def test_a_command_that_only_reads_works_in_a_read_only_folder_and_creates_nothing(copy, command):
    before = tree(copy.parent)
    result = _in_read_only_folder(copy, command)
    assert result.returncode == 0, result.stderr
    assert tree(copy.parent) == before  # no -wal, no -shm


def test_a_writing_command_refuses_a_read_only_file_before_writing(copy):
    copy.chmod(0o444)
    before = tree(copy.parent)
    result = run_as_other(["--db", str(copy), *STAFF], tmp=copy.parent, owner_of=None)
    assert "read-only" in fails_with(result, READ_ONLY)
    assert tree(copy.parent) == before


def test_report_on_a_read_only_file_cannot_audit_its_export_so_writes_nothing(copy, tmp_path):
    copy.chmod(0o444)
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" / "r.pdf"
    before = tree(copy.parent)
    result = run_as_other(["--db", str(copy), *REPORT, str(out)], tmp=tmp_path, owner_of=None)
    fails_with(result, READ_ONLY)
    assert list((tmp_path / "out").iterdir()) == []
    assert tree(copy.parent) == before


@pytest.fixture
def tmpfs(tmp_path) -> Iterator[Path]:
    """A tiny file system of our own (root only), unmounted afterwards."""
    mount = tmp_path / "mnt"
    mount.mkdir()
    if not IS_ROOT:
        pytest.skip("mounting a tmpfs needs root")
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m,mode=0755", "tmpfs", str(mount)],
        capture_output=True,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_read_only_file_system_is_read_but_never_written(demo_db, tmpfs):
    path = tmpfs / "d.db"
    shutil.copyfile(demo_db, path)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    before = tree(tmpfs)
    line = fails_with(run("--db", str(path), *STAFF, tmp=tmpfs.parent), READ_ONLY)
    assert "read-only" in line
    result = run("--db", str(path), *CHECK, tmp=tmpfs.parent)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
    assert "damaged" not in result.stderr
    assert tree(tmpfs) == before


def test_a_full_disk_under_report_out_leaves_nothing_behind(demo_db, tmpfs):
    fd = os.open(tmpfs / "filler", os.O_WRONLY | os.O_CREAT, 0o600)
    try:  # fill the disk to the last byte
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass
    finally:
        os.close(fd)
    before = tree(tmpfs)
    result = run(
        "--db", str(demo_db), *REPORT, str(tmpfs / "r.pdf"), tmp=tmpfs.parent
    )  # fmt: skip
    line = fails_with(result, DISK_FULL)
    assert "nothing was written" in line
    assert tree(tmpfs) == before  # no r.pdf, no r.pdf.part


def _report_with_os_failure(db: Path, tmp: Path, errno_name: str) -> subprocess.CompletedProcess:
    """``report`` with the disk refusing the document's bytes (fsync fails as it would)."""
    code = (
        "import errno, os, sys, fieldops.cli as cli\n"
        "def refuse(fd):\n"
        f"    raise OSError(errno.{errno_name}, os.strerror(errno.{errno_name}))\n"
        "os.fsync = refuse\n"
        f"raise SystemExit(cli.main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state")}
    args = ["--db", str(db), *REPORT, str(tmp / "out" / "r.pdf")]
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )


@pytest.mark.parametrize(("errno_name", "kind"), [("ENOSPC", DISK_FULL), ("EROFS", READ_ONLY)])
def test_an_injected_disk_failure_under_report_out_has_its_status(
    demo_db, tmp_path, errno_name, kind
):
    (tmp_path / "out").mkdir()
    db_before = demo_db.read_bytes()
    before = tree(tmp_path)
    line = fails_with(_report_with_os_failure(demo_db, tmp_path, errno_name), kind)
    assert "--out" in line and "nothing was written" in line
    assert tree(tmp_path) == before  # no part file
    con = sqlite3.connect(demo_db)  # and no audit event for an export that did not happen
    exported = con.execute("SELECT count(*) FROM audit_event WHERE action = 'exported'")
    assert exported.fetchone() == (0,)
    con.close()
    assert demo_db.read_bytes() == db_before


# -- the write lock ----------------------------------------------------------------------


@pytest.fixture
def held_lock(copy) -> Iterator[Path]:
    """Another program holding the write lock (BEGIN IMMEDIATE) for the whole test."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            "con = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "con.execute('BEGIN IMMEDIATE')\n"
            "print('held', flush=True)\n"
            "time.sleep(300)\n",
            str(copy),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    try:
        yield copy
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("command", [CHECK, DUE], ids=ids)
def test_a_command_that_only_reads_answers_while_another_holds_the_write_lock(held_lock, command):
    started = time.monotonic()
    result = run("--db", str(held_lock), *command, tmp=held_lock.parent)
    took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    assert took < BUSY_TIMEOUT_MS / 1000, took  # it never waited for the lock
    if command == CHECK:
        assert result.stdout.strip() == "ok"


def test_a_write_blocked_past_the_busy_timeout_is_said_and_loses_nothing(held_lock):
    con = sqlite3.connect(held_lock)
    staff_before = con.execute("SELECT count(*) FROM staff_user").fetchone()
    con.close()
    out = held_lock.parent / "r.pdf"
    # the report reads without the lock; its audited export is the one write
    line = fails_with(run("--db", str(held_lock), *REPORT, str(out), tmp=held_lock.parent), LOCKED)
    assert "busy" in line and "try again" in line
    assert not out.exists() and not list(held_lock.parent.glob("*.part"))
    con = sqlite3.connect(held_lock)
    assert con.execute("SELECT count(*) FROM staff_user").fetchone() == staff_before
    con.close()


# -- input the command took for a bug ----------------------------------------------------


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_due_refuses_a_day_out_of_range_in_words(demo_db, tmp_path, day):
    result = run("--db", str(demo_db), "due", "--date", day, tmp=tmp_path)
    assert result.returncode == 2  # a usage error, like a badly written date
    assert "Traceback" not in result.stderr and "bug" not in result.stderr
    assert day in result.stderr and "between" in result.stderr


def test_due_on_the_last_day_in_range_answers(demo_db, tmp_path):
    result = run("--db", str(demo_db), "due", "--date", "2999-12-31", tmp=tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("people", [0, 1, 20, 25])
def test_a_small_demo_is_written_without_a_crash(tmp_path, people):
    path = tmp_path / "small.db"
    result = run("--db", str(path), "demo", "--seed", "2", "--people", str(people), tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"{people} people" in result.stdout
    check = run("--db", str(path), "check", tmp=tmp_path)
    assert check.returncode == 0 and check.stdout.strip() == "ok", check.stdout + check.stderr


@pytest.mark.parametrize("people", ["-1", "10001", "99999999999"])
def test_a_demo_of_no_or_too_many_people_is_refused_before_anything_is_written(tmp_path, people):
    path = tmp_path / "demo.db"
    result = run("--db", str(path), "demo", "--seed", "2", "--people", people, tmp=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "--people" in result.stderr and "Traceback" not in result.stderr
    assert not path.exists()  # refused before the database was even opened
