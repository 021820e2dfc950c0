"""The ``fieldops`` command as a user runs it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import date

import pytest

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
    from fieldops.services.setup import open_database, sign_in_os_user

    paths = []
    for name in ("a.db", "b.db"):
        opened = open_database(str(tmp_path / name))
        fill(opened.db, sign_in_os_user(opened.db), seed=7, people=60, anchor=date(2026, 11, 20))
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


def test_the_os_user_is_recorded_as_the_actor(tmp_path):
    db = str(tmp_path / "u.db")
    run(
        "--db",
        db,
        "demo",
        "--seed",
        "1",
        "--people",
        "20",
        env={"USER": "clerk7", "LOGNAME": "clerk7"},
    )
    con = sqlite3.connect(db)
    actors = {r[0] for r in con.execute("SELECT DISTINCT actor FROM audit_event")}
    con.close()
    assert actors == {"clerk7"}


def test_report_register_writes_the_period_as_a_pdf(tmp_path):
    from io import BytesIO

    from pypdf import PdfReader

    db = str(tmp_path / "r.db")
    assert run("--db", db, "demo", "--seed", "5", "--people", "40").returncode == 0
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


def test_the_first_user_administers_staff_from_the_command_line(tmp_path):
    db = str(tmp_path / "s.db")
    env = {"USER": "clerk7", "LOGNAME": "clerk7"}
    result = run(
        "--db", db, "staff", "sam", "--role", "supervisor", "--name", "Sam S", "--new", env=env
    )
    assert result.returncode == 0, result.stderr
    assert "sam" in result.stdout and "supervisor" in result.stdout
    assert "clerk7" in result.stdout and "admin" in result.stdout  # first user of a new database
    other = run(
        "--db", db, "staff", "eve", "--role", "admin", env={"USER": "sam", "LOGNAME": "sam"}
    )
    assert other.returncode == 1 and "administrator" in other.stderr
