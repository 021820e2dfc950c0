"""What the ``fieldops`` command says when something is wrong: one line, an exit code,
no traceback, and nothing created or left behind (issue 7, item 7)."""

from __future__ import annotations

import json
import os
import pwd
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from accounts_support import login_as_demo_supervisor

from fieldops.db.migrate import head_revision, script_directory
from fieldops.services.setup import open_database

READ_ONLY = [
    ["check"],
    ["due"],
    ["due", "--json"],
    ["report", "register", "--from", "2026-01-01", "--to", "2026-01-31", "--out", "{tmp}/r.pdf"],
]
WRITING = [["demo", "--seed", "1", "--people", "5"], ["staff"]]
# The read-only commands share one way in; two of them stand for all where the matrix grows.
SOME_READ_ONLY = [READ_ONLY[0], READ_ONLY[3]]
JANUARY = ("--from", "2026-01-01", "--to", "2026-01-31")


def run(*args: str, tmp: Path, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    """The command as a user runs it; bug logs go under ``tmp``, never the real home."""
    args = tuple(a.replace("{tmp}", str(tmp)) for a in args)
    full_env = {
        **os.environ,
        "XDG_STATE_HOME": str(tmp / "state"),
        "USER": "clerk7",
        "LOGNAME": "clerk7",
        **(env or {}),
    }
    if "stdout" not in kw:
        kw["capture_output"] = True
    return subprocess.run(
        [sys.executable, "-m", "fieldops.cli", *args], text=True, env=full_env, timeout=120, **kw
    )


def one_line_error(result: subprocess.CompletedProcess) -> str:
    """The refusal a user reads: a non-zero exit and a single line, no traceback."""
    assert result.returncode not in (0, None), result.stdout
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("fieldops: ")
    return lines[0]


def tree(folder: Path) -> list[tuple[str, bytes | None]]:
    """Every file under ``folder`` with its content: to prove nothing was created or changed."""
    return sorted(
        (str(p.relative_to(folder)), p.read_bytes() if p.is_file() else None)
        for p in folder.rglob("*")
        if "state" not in p.parts
    )


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    path = folder / "d.db"
    result = run("--db", str(path), "demo", "--seed", "2", "--people", "40", tmp=folder)
    assert result.returncode == 0, result.stderr
    login_as_demo_supervisor(path)  # the report commands here are a supervisor's
    return path


# -- the database named by --db ----------------------------------------------------------


@pytest.mark.parametrize("command", READ_ONLY, ids=lambda c: " ".join(c[:2]))
def test_a_read_only_command_refuses_a_missing_database_and_creates_nothing(tmp_path, command):
    (tmp_path / "keep.txt").write_text("x")
    before = tree(tmp_path)
    for db in (tmp_path / "typo.db", tmp_path / "no-such-folder" / "fieldops.db"):
        line = one_line_error(run("--db", str(db), *command, tmp=tmp_path))
        assert str(db) in line
        assert not db.exists() and not db.parent.joinpath(db.name + "-wal").exists()
    assert tree(tmp_path) == before


@pytest.mark.parametrize("command", SOME_READ_ONLY + WRITING, ids=lambda c: " ".join(c[:2]))
@pytest.mark.parametrize("kind", ["text file", "folder", "other sqlite database"])
def test_a_file_that_is_not_a_fieldops_database_is_refused_untouched(tmp_path, command, kind):
    target = tmp_path / "data"
    if kind == "text file":
        target.write_bytes(b"root:x:0:0:root:/root:/bin/bash\n" * 40)
    elif kind == "folder":
        target.mkdir()
    else:
        con = sqlite3.connect(target)
        con.execute("CREATE TABLE recipes (name TEXT)")
        con.commit()
        con.close()
    before = tree(tmp_path)
    line = one_line_error(run("--db", str(target), *command, tmp=tmp_path))
    assert str(target) in line
    if kind == "other sqlite database":  # said as what it is, by every command alike
        assert "not one FieldOps made" in line and "no FieldOps data yet" not in line
    assert tree(tmp_path) == before


@pytest.mark.parametrize("command", SOME_READ_ONLY, ids=lambda c: " ".join(c[:2]))
def test_a_read_only_command_refuses_an_empty_file(tmp_path, command):
    target = tmp_path / "empty.db"
    target.touch()
    before = tree(tmp_path)
    one_line_error(run("--db", str(target), *command, tmp=tmp_path))
    assert tree(tmp_path) == before


def test_a_writing_command_may_start_a_database_in_an_empty_file(tmp_path):
    target = tmp_path / "empty.db"
    target.touch()
    result = run("--db", str(target), "staff", tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "clerk7" not in result.stdout  # issue 12: listing staff signs no one up


def test_the_first_run_of_a_writing_command_still_creates_the_database(tmp_path):
    # Issue 13: only in a folder that exists; a --db in a missing folder is refused
    # (tests/test_failures_cli.py), and the default database is made with its folder.
    (tmp_path / "new").mkdir()
    target = tmp_path / "new" / "fieldops.db"
    result = run("--db", str(target), "staff", tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert target.exists() and result.stdout == ""  # no accounts yet (issue 12)
    assert "new database" in result.stderr and str(target) in result.stderr


def _at_revision(path: Path, revision: str) -> None:
    opened = open_database(str(path))
    opened.db.dispose()
    con = sqlite3.connect(path)
    con.execute("UPDATE alembic_version SET version_num = ?", (revision,))
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


@pytest.mark.parametrize("command", SOME_READ_ONLY, ids=lambda c: " ".join(c[:2]))
def test_a_read_only_command_refuses_an_older_schema_without_upgrading_it(tmp_path, command):
    older = script_directory().get_revision(head_revision()).down_revision
    assert isinstance(older, str)
    path = tmp_path / "old.db"
    _at_revision(path, older)
    before = tree(tmp_path)
    line = one_line_error(run("--db", str(path), *command, tmp=tmp_path))
    assert "older" in line and "upgrade" in line
    assert tree(tmp_path) == before  # not upgraded, and no backup copy made


@pytest.mark.parametrize("command", SOME_READ_ONLY + WRITING[1:], ids=lambda c: " ".join(c[:2]))
def test_a_newer_schema_is_refused_untouched(tmp_path, command):
    path = tmp_path / "future.db"
    _at_revision(path, "from_the_future")
    before = tree(tmp_path)
    line = one_line_error(run("--db", str(path), *command, tmp=tmp_path))
    assert "newer" in line
    assert tree(tmp_path) == before


def test_read_only_commands_do_not_sign_anyone_in(tmp_path):
    path = tmp_path / "fresh.db"
    open_database(str(path)).db.dispose()  # a database at the current schema, no staff yet
    for command in READ_ONLY:
        result = run("--db", str(path), *command, tmp=tmp_path)
        assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
    con = sqlite3.connect(path)
    assert con.execute("SELECT count(*) FROM staff_user").fetchone() == (0,)
    # Nothing is recorded: a report's export is audited, so a login mapped to no staff
    # account is refused it (issue 12: an unmapped user may not write) in one line.
    assert con.execute("SELECT count(*) FROM audit_event").fetchone() == (0,)
    con.close()


# -- report --out and the period ---------------------------------------------------------


def _report(db: Path, tmp: Path, out: str, start="2026-01-01", end="2026-12-31"):
    return run(
        "--db", str(db), "report", "register", "--from", start, "--to", end, "--out", out, tmp=tmp
    )


def test_report_out_naming_a_folder_is_refused_and_leaves_no_part_file(demo_db, tmp_path):
    before = tree(tmp_path)
    line = one_line_error(_report(demo_db, tmp_path, str(tmp_path)))
    assert "--out" in line and "folder" in line
    assert tree(tmp_path) == before
    assert not list(demo_db.parent.glob("*.part"))


def test_report_out_in_a_missing_folder_is_refused_and_creates_nothing(demo_db, tmp_path):
    before = tree(tmp_path)
    line = one_line_error(_report(demo_db, tmp_path, str(tmp_path / "nowhere" / "r.pdf")))
    assert "--out" in line and str(tmp_path / "nowhere") in line
    assert tree(tmp_path) == before


def test_report_never_writes_over_the_database_itself(tmp_path):
    db = tmp_path / "r.db"
    assert (
        run("--db", str(db), "demo", "--seed", "1", "--people", "10", tmp=tmp_path).returncode == 0
    )
    before = db.read_bytes()
    line = one_line_error(_report(db, tmp_path, str(db)))
    assert "database" in line
    assert db.read_bytes() == before


def test_report_writes_through_the_atomic_writer(demo_db, tmp_path):
    out = tmp_path / "register.pdf"
    out.write_bytes(b"the old register")
    result = _report(demo_db, tmp_path, str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF")
    assert [p.name for p in tmp_path.iterdir() if p.name != "state"] == ["register.pdf"]


@pytest.mark.parametrize(
    ("start", "end"),
    [("2026-12-01", "2026-11-01"), ("2024-01-01", "2026-01-01"), ("2200-01-01", "2200-01-31")],
)
def test_a_bad_period_names_the_options_not_the_internal_field(demo_db, tmp_path, start, end):
    out = tmp_path / "r.pdf"
    result = _report(demo_db, tmp_path, str(out), start, end)
    line = one_line_error(result)
    assert result.returncode == 1
    assert "--to" in line and "period_end" not in line and "period_start" not in line
    if start.startswith("2200"):  # past the service's 2199: both days refused, by option
        assert "--from" in line and "start:" not in line
    assert not out.exists()


# -- staff -------------------------------------------------------------------------------


def _staff_names(path: Path) -> set[str]:
    con = sqlite3.connect(path)
    try:
        return {r[0] for r in con.execute("SELECT username FROM staff_user")}
    finally:
        con.close()


def _first_admin(db: Path, tmp: Path) -> None:
    result = run(
        "--db", str(db), "staff", "ada", "--role", "admin", "--password-stdin",
        tmp=tmp, input="correct horse battery\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", ["nobody", "no-such-login-q7"])
def test_staff_refuses_a_login_that_exists_nowhere_unless_told_new(tmp_path, name):
    db = tmp_path / "s.db"
    _first_admin(db, tmp_path)
    line = one_line_error(run("--db", str(db), "staff", name, "--role", "officer", tmp=tmp_path))
    assert name in line and "--new" in line
    assert _staff_names(db) == {"ada"}
    result = run("--db", str(db), "staff", name, "--role", "officer", "--new", tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _staff_names(db) == {"ada", name}
    # once a staff login exists, changing it needs no --new
    result = run("--db", str(db), "staff", name, "--role", "supervisor", tmp=tmp_path)
    assert result.returncode == 0, result.stderr


def test_staff_accepts_an_account_of_this_computer_without_new(tmp_path):
    me = pwd.getpwuid(os.getuid())
    if os.path.basename(me.pw_shell) in ("nologin", "false"):
        pytest.skip("the test runs as an account without a login shell")
    db = tmp_path / "s.db"
    _first_admin(db, tmp_path)
    result = run("--db", str(db), "staff", me.pw_name, "--role", "officer", tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert me.pw_name in _staff_names(db)


def test_staff_with_a_refused_password_writes_nothing(tmp_path):
    db = tmp_path / "s.db"
    _first_admin(db, tmp_path)
    before = _staff_rows(db)
    # A new account, and a change to one that exists.
    for name, role in (("bob", "operator"), ("ada", "admin")):
        result = run(
            "--db", str(db), "staff", name, "--role", role, "--name", "Renamed", "--new",
            "--password-stdin", "--os-user", "bob-login", tmp=tmp_path, input="short\n",
        )  # fmt: skip
        assert result.returncode == 1 and "password" in one_line_error(result)
        assert _staff_rows(db) == before
    result = run(
        "--db", str(db), "staff", "bob", "--role", "operator", "--new", "--password-stdin",
        tmp=tmp_path, input="a long enough password\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    con = sqlite3.connect(db)
    row = con.execute(
        "SELECT password_hash IS NOT NULL, must_change_password FROM staff_user "
        "WHERE username = 'bob'"
    ).fetchone()
    con.close()
    assert row == (1, 1)


def _staff_rows(path: Path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        staff = con.execute("SELECT * FROM staff_user ORDER BY id").fetchall()
        return [*staff, con.execute("SELECT count(*) FROM audit_event").fetchone()]
    finally:
        con.close()


# -- due ---------------------------------------------------------------------------------


def test_due_prints_labels_not_category_codes(demo_db, tmp_path):
    from fieldops.services.due import CATEGORIES

    text = run("--db", str(demo_db), "due", "--date", "2026-12-01", tmp=tmp_path)
    data = json.loads(
        run("--db", str(demo_db), "due", "--date", "2026-12-01", "--json", tmp=tmp_path).stdout
    )
    assert text.returncode == 0 and data["items"]
    for item in data["items"]:
        assert item["category"] in CATEGORIES  # codes stay in the JSON for scripts
        assert item["category_label"] == CATEGORIES[item["category"]]
        assert f"{CATEGORIES[item['category']]}" in text.stdout
    for code in CATEGORIES:
        assert code not in text.stdout


def test_due_into_a_closed_pipe_exits_quietly(demo_db, tmp_path):
    """``fieldops due --json | head -1``: the reader has gone; no traceback, exit 141."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has already gone when the command first writes
    try:
        result = run(
            "--db",
            str(demo_db),
            "due",
            "--json",
            tmp=tmp_path,
            stdout=write_end,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 141
    assert result.stderr == ""


def test_due_piped_into_head_prints_its_first_line(demo_db, tmp_path):
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    pipe = subprocess.run(
        f"{sys.executable} -m fieldops.cli --db {demo_db} due --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert pipe.stdout == "{\n" and pipe.stderr == ""


# -- the guard in main() ------------------------------------------------------------------


def _with_failing_command(tmp: Path, exc: str, *extra: str) -> subprocess.CompletedProcess:
    code = (
        "import sys, fieldops.cli as cli\n"
        "def boom(args):\n"
        f"    raise {exc}\n"
        "cli.COMMANDS['check'] = boom\n"
        f"raise SystemExit(cli.main([*{list(extra)!r}, '--db', 'x.db', 'check']))\n"
    )
    env = {**os.environ, "XDG_STATE_HOME": str(tmp / "state")}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, cwd=tmp
    )


def test_a_bug_is_one_line_pointing_at_a_detail_log(tmp_path):
    result = _with_failing_command(tmp_path, "KeyError('flux capacitor')")
    line = one_line_error(result)
    assert "bug" in line and "--debug" in line
    logs = list((tmp_path / "state").rglob("*.log"))
    assert len(logs) == 1 and str(logs[0]) in line
    log = logs[0].read_text()
    assert "Traceback" in log and "flux capacitor" in log


def test_debug_shows_the_traceback(tmp_path):
    result = _with_failing_command(tmp_path, "KeyError('flux capacitor')", "--debug")
    assert result.returncode != 0
    assert "Traceback" in result.stderr and "flux capacitor" in result.stderr


def test_an_environment_failure_is_one_line_with_the_system_message(tmp_path):
    result = _with_failing_command(tmp_path, "OSError(28, 'No space left on device')")
    line = one_line_error(result)
    assert "No space left on device" in line
    assert not (tmp_path / "state").exists()  # not a bug: no bug log


def test_a_user_error_is_its_own_message(tmp_path):
    result = _with_failing_command(
        tmp_path, "__import__('fieldops.errors').errors.UserError('Nothing to do.')"
    )
    assert one_line_error(result) == "fieldops: Nothing to do."
    assert result.returncode == 1


@pytest.mark.parametrize("length", [240, 251])  # .pdf included: within the 255 allowed
def test_report_to_a_long_legal_file_name_is_written(demo_db, tmp_path, length):
    out = tmp_path / ("r" * (length - 4) + ".pdf")
    result = run("--db", str(demo_db), "report", "calls", *JANUARY, "-o", str(out), tmp=tmp_path)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF") and not list(tmp_path.glob(".*.part"))


def test_report_to_a_file_name_too_long_is_the_users_to_change(demo_db, tmp_path):
    out = tmp_path / ("r" * 300 + ".pdf")
    before = tree(tmp_path)
    result = run("--db", str(demo_db), "report", "calls", *JANUARY, "-o", str(out), tmp=tmp_path)
    line = one_line_error(result)
    assert result.returncode == 1 and "--out" in line and "too long" in line
    assert "database" not in line  # not "the database could not be reached"
    assert tree(tmp_path) == before


LONG = "y" * 300  # a folder or file name longer than a file system keeps (ENAMETOOLONG)


@pytest.mark.parametrize(
    ("option", "command"),
    [
        ("--out", ["licence", "renewals", "--year", "2027", "-o", f"{{tmp}}/{LONG}.csv"]),
        ("--out", ["report", "register", *JANUARY, "-o", f"{{tmp}}/{LONG}/r.csv"]),
        ("--to", ["backup", "--to", f"{{tmp}}/{LONG}"]),
        ("FILE", ["restore", f"{{tmp}}/{LONG}.db"]),
    ],
    ids=["licence-out", "report-out-folder", "backup-to", "restore-file"],
)
def test_a_path_option_too_long_is_refused_as_that_option(demo_db, tmp_path, option, command):
    before = tree(tmp_path)
    result = run("--db", str(demo_db), *command, tmp=tmp_path)
    line = one_line_error(result)
    assert result.returncode == 1 and line.startswith(f"fieldops: {option}")
    assert "too long" in line and "could not be reached" not in line  # not the database's
    assert tree(tmp_path) == before
