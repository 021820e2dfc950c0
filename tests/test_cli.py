"""The ``fieldops`` command as a user runs it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import date

import pytest
from accounts_support import login_as_demo_supervisor

from fieldops import __version__
from fieldops.cli import main


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fieldops.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and __version__ in capsys.readouterr().out


def test_no_display_is_said_plainly_not_a_qt_abort():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    result = subprocess.run(
        [sys.executable, "-m", "fieldops.cli"], capture_output=True, text=True, env=env, timeout=60
    )
    assert result.returncode == 2
    assert "no display" in result.stderr and "xvfb-run" in result.stderr
    assert "Traceback" not in result.stderr


def _names(path) -> list[tuple]:
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT full_name, address, phone FROM person ORDER BY id").fetchall()
    finally:
        con.close()


def test_demo_is_deterministic_and_check_passes(tmp_path):
    from fieldops.demo import fill
    from fieldops.services.demo_accounts import ensure_demo_staff
    from fieldops.services.setup import open_database

    paths = []
    for name in ("a.db", "b.db"):
        opened = open_database(str(tmp_path / name))
        writer = ensure_demo_staff(opened.db, None, "clerk7").writer
        fill(opened.db, writer, seed=7, people=60, anchor=date(2026, 11, 20))
        opened.db.dispose()
        paths.append(tmp_path / name)
    assert _names(paths[0]) == _names(paths[1]) and len(_names(paths[0])) == 60
    con = sqlite3.connect(paths[0])
    kinds = {r[0] for r in con.execute("SELECT kind FROM disposition")}
    con.close()
    assert kinds == {"reclaimed", "adopted", "transferred", "euthanized", "died", "escaped"}
    result = run("--db", str(paths[0]), "check")
    assert result.returncode == 0 and result.stdout.strip() == "ok"


def test_demo_command_and_due_json(tmp_path):
    db = str(tmp_path / "d.db")
    result = run("--db", db, "demo", "--seed", "2", "--people", "40")
    assert result.returncode == 0, result.stderr
    assert "40 people" in result.stdout
    result = run("--db", db, "due", "--date", "2026-12-01", "--json")
    data = json.loads(result.stdout)
    assert data["date"] == "2026-12-01"
    # Issues 9 and 10: the quarantine and vicious-animal modules' items join the pound's; each
    # names its module, kind and record, and the pound's keep their impoundment id.
    assert all({"category", "module", "kind", "id", "text"} <= set(i) for i in data["items"])
    assert all("impoundment_id" in i for i in data["items"] if i["module"] == "impound")
    assert any(i["category"].startswith("quarantine.") for i in data["items"])


def test_due_rejects_a_bad_date(tmp_path):
    result = run("--db", str(tmp_path / "x.db"), "due", "--date", "30/11/2026")
    assert result.returncode == 2 and "YYYY-MM-DD" in result.stderr


def test_check_reports_a_record_that_bypassed_the_services(tmp_path):
    db = str(tmp_path / "c.db")
    assert run("--db", db, "staff").returncode == 0  # check only reads: staff creates it
    assert run("--db", db, "check").returncode == 0
    con = sqlite3.connect(db)
    con.execute(
        "INSERT INTO person (full_name, sort_name, address, city, postal_code, in_city, "
        "phone, search_phone, email, is_veterinarian, notes, created_at, updated_at, "
        "version) VALUES ('Ghost', 'ghost', '', '', '', 1, '', '', '', 0, '', "
        "'2026-01-01', '2026-01-01', 1)"
    )
    con.commit()
    con.close()
    result = run("--db", db, "check")
    assert result.returncode == 1 and "no audit trail" in result.stdout


def test_the_demo_is_recorded_against_its_accounts_not_the_logname(tmp_path):
    # Issue 12: the demo writes as its own accounts; LOGNAME names no one.
    db = str(tmp_path / "u.db")
    result = run(
        "--db", db, "demo", "--seed", "1", "--people", "20",
        env={"USER": "clerk7", "LOGNAME": "clerk7"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    passwords = dict(
        line.split() for line in result.stdout.splitlines() if line.startswith("  demo-")
    )
    assert set(passwords) == {"demo-operator", "demo-officer", "demo-supervisor", "demo-admin"}
    assert len(set(passwords.values())) == 4 and all(len(p) >= 10 for p in passwords.values())
    con = sqlite3.connect(db)
    actors = {r[0] for r in con.execute("SELECT DISTINCT actor FROM audit_event")}
    hashes = [r[0] for r in con.execute("SELECT password_hash FROM staff_user")]
    con.close()
    assert actors == {"demo-admin", "demo-supervisor"}
    assert all(h.startswith("$argon2id$") for h in hashes)
    assert not any(p in h for h in hashes for p in passwords.values())
    again = run("--db", db, "demo", "--seed", "2", "--people", "5")  # the mapped admin
    assert again.returncode == 0, again.stderr
    assert "demo-" not in again.stdout  # the passwords were shown once


def test_report_register_writes_the_period_as_a_pdf(tmp_path):
    from io import BytesIO

    from pypdf import PdfReader

    db = str(tmp_path / "r.db")
    assert run("--db", db, "demo", "--seed", "5", "--people", "40").returncode == 0
    login_as_demo_supervisor(db)  # record reports are a supervisor's (issue 12)
    out = tmp_path / "register.pdf"
    result = run(
        "--db",
        db,
        "report",
        "register",
        "--from",
        "2026-01-01",
        "--to",
        "2026-12-31",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    n = int(result.stdout.split()[0])
    assert n > 10
    text = "".join(p.extract_text() for p in PdfReader(BytesIO(out.read_bytes())).pages)
    assert "Register of impounded animals" in text
    for kind in ("Reclaimed by owner", "Adopted", "Euthanized", "Escaped"):
        assert kind in text


def test_report_refuses_a_backwards_period(tmp_path):
    result = run(
        "--db",
        str(tmp_path / "x.db"),
        "report",
        "register",
        "--from",
        "2026-12-01",
        "--to",
        "2026-11-01",
        "--out",
        str(tmp_path / "r.pdf"),
    )
    assert result.returncode == 1 and "period" in result.stderr
    assert not (tmp_path / "r.pdf").exists()


def _admin(db: str, env: dict | None = None, password: str = "correct horse battery"):
    return subprocess.run(
        [sys.executable, "-m", "fieldops.cli", "--db", db, "staff", "ada", "--role", "admin",
         "--password-stdin"],
        input=password + "\n", capture_output=True, text=True,
        env={**os.environ, **(env or {})}, timeout=120,
    )  # fmt: skip


def test_the_first_administrator_is_made_on_the_command_line_for_the_real_login(tmp_path):
    import pwd

    db = str(tmp_path / "s.db")
    env = {"USER": "clerk7", "LOGNAME": "clerk7"}  # ignored: the real user id decides
    me = pwd.getpwuid(os.getuid()).pw_name
    short = _admin(db, env, "short")
    assert short.returncode == 1 and "10 characters" in short.stderr
    made = _admin(db, env)
    assert made.returncode == 0, made.stderr
    assert f"ada                  admin       active    {me}" in made.stdout
    assert "clerk7" not in made.stdout
    result = run(
        "--db", db, "staff", "sam", "--role", "supervisor", "--name", "Sam S", "--new", env=env
    )
    assert result.returncode == 0, result.stderr
    assert "sam" in result.stdout and "supervisor" in result.stdout
    again = _admin(db, env, "another password")  # the first administrator exists now
    assert again.returncode == 0  # an update by the mapped administrator, not a second first


def test_logname_root_run_as_another_user_is_not_root_and_may_not_write(
    tmp_path, monkeypatch, capsys
):
    """Issue 12: LOGNAME=root run as nobody made itself an administrator.

    The command runs in this process with the real user id reported as another
    user's (the test's own interpreter may not be runnable by that user)."""
    import pwd

    db = str(tmp_path / "s.db")
    assert _admin(db).returncode == 0
    other = pwd.getpwnam("nobody")
    monkeypatch.setenv("LOGNAME", "root")
    monkeypatch.setenv("USER", "root")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(os, "getuid", lambda: other.pw_uid)
    from fieldops.services.context import os_username

    assert os_username() == "nobody"
    assert main(["--db", db, "staff", "eve", "--role", "admin", "--new"]) == 1
    err = capsys.readouterr().err
    assert "'nobody' is not mapped" in err and len(err.strip().splitlines()) == 1
    assert main(["--db", db, "demo", "--seed", "1", "--people", "5"]) == 1
    assert "nobody" in capsys.readouterr().err
    con = sqlite3.connect(db)
    users = {r[0] for r in con.execute("SELECT username FROM staff_user")}
    actors = {r[0] for r in con.execute("SELECT DISTINCT actor FROM audit_event")}
    con.close()
    assert users == {"ada"} and actors == {"ada"}
    assert main(["--db", db, "check"]) == 0  # reading stays open to an unmapped login
