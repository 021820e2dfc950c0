"""``fieldops report NAME --from D --to D -o FILE``: any report on the seam, PDF or CSV by
the file's suffix, the public-records copy, and one line for each mistake (issue 11)."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import sys
from pathlib import Path

import pytest
from accounts_support import login_as_demo_supervisor
from pypdf import PdfReader
from test_cli_errors import one_line_error, run, tree

YEAR = ("--from", "2026-01-01", "--to", "2026-12-31")


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("reportdemo")
    path = folder / "d.db"
    result = run("--db", str(path), "demo", "--seed", "3", "--people", "40", tmp=folder)
    assert result.returncode == 0, result.stderr
    login_as_demo_supervisor(path)  # record reports are a supervisor's (issue 12)
    return path


def report(db: Path, tmp: Path, *args: str):
    return run("--db", str(db), "report", *args, tmp=tmp)


def _exports(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [
            r[0]
            for r in con.execute(
                "SELECT after FROM audit_event WHERE entity = 'report' AND action = 'exported'"
            )
        ]
    finally:
        con.close()


def test_help_lists_every_report_name_from_the_seam(tmp_path):
    result = run("report", "--help", tmp=tmp_path)
    assert result.returncode == 0
    assert "impound-register" in result.stdout and "register" in result.stdout
    assert "-o FILE, --out FILE" in result.stdout and "--redacted" in result.stdout


def test_the_register_by_its_name_as_pdf_with_the_short_option(demo, tmp_path):
    out = tmp_path / "register.pdf"
    result = report(demo, tmp_path, "impound-register", *YEAR, "-o", str(out))
    assert result.returncode == 0, result.stderr
    n = int(result.stdout.split()[0])
    text = " ".join(p.extract_text() for p in PdfReader(out).pages)
    assert "Register of impounded animals" in text and f"Total: {n} impoundments" in text
    assert "Fees paid by kind" in text
    assert '"format": "pdf"' in _exports(demo)[-1]


def test_csv_by_the_suffix_is_the_same_rows_with_a_bom(demo, tmp_path):
    pdf, out = tmp_path / "r.pdf", tmp_path / "r.csv"
    assert report(demo, tmp_path, "register", *YEAR, "--out", str(pdf)).returncode == 0
    result = report(demo, tmp_path, "register", *YEAR, "--out", str(out))
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows[0][:3] == ["No.", "Impounded", "Description"]
    assert len(rows) - 1 == int(result.stdout.split()[0]) > 10
    text = re.sub(r"\s+", " ", " ".join(p.extract_text() for p in PdfReader(pdf).pages))
    for row in rows[1:]:
        assert f"{row[0]} {row[1]}" in text  # every CSV line is a line of the PDF


def test_the_public_records_copy_withholds_addresses(demo, tmp_path):
    full, public = tmp_path / "full.csv", tmp_path / "public.csv"
    assert report(demo, tmp_path, "register", *YEAR, "-o", str(full)).returncode == 0
    result = report(demo, tmp_path, "register", *YEAR, "-o", str(public), "--redacted")
    assert result.returncode == 0, result.stderr
    assert "public-records copy" in result.stdout
    full_rows = list(csv.reader(io.StringIO(full.read_text("utf-8-sig"))))
    public_rows = list(csv.reader(io.StringIO(public.read_text("utf-8-sig"))))
    released = [i for i, r in enumerate(full_rows[1:], 1) if r[4]]
    assert released
    for i in released:
        assert public_rows[i][4].endswith("[withheld]")
        assert public_rows[i][4].split(",")[0] == full_rows[i][4].split(",")[0]  # the name
    assert '"redacted": true' in _exports(demo)[-1]


@pytest.mark.parametrize(
    ("args", "says", "status"),
    [
        (("no-such-report", *YEAR), "no-such-report", 1),
        (("register", "--from", "2026-13-01", "--to", "2026-12-31"), "--from", 2),
        (("register", "--from", "2026-01-01", "--to", "31/12/2026"), "--to", 2),
        (("register", "--from", "1899-12-31", "--to", "2026-12-31"), "--from", 2),
        (("register", "--from", "2026-01-01", "--to", "3000-01-01"), "--to", 2),
        (("register", "--from", "2026-12-01", "--to", "2026-11-01"), "--to", 1),
        (("register", "--from", "2024-01-01", "--to", "2026-01-01"), "--to", 1),
    ],
    ids=["name", "from", "to", "from-1899", "to-3000", "reversed", "too-long"],
)
def test_a_bad_name_or_period_is_one_line_and_writes_nothing(demo, tmp_path, args, says, status):
    """Not a date, or a day outside 1900-2999, is the command line itself (status 2, as the
    README's table says and `due --date` does); a period the report refuses is 1."""
    before = tree(tmp_path)
    result = report(demo, tmp_path, *args, "-o", str(tmp_path / "r.pdf"))
    line = one_line_error(result)
    assert says in line and result.returncode == status
    assert tree(tmp_path) == before


@pytest.mark.parametrize("name", ["r.txt", "r", "r.pdf.bak"])
def test_a_file_neither_pdf_nor_csv_is_refused(demo, tmp_path, name):
    before = tree(tmp_path)
    line = one_line_error(report(demo, tmp_path, "register", *YEAR, "-o", str(tmp_path / name)))
    assert "--out" in line and ".pdf or .csv" in line
    assert tree(tmp_path) == before


def test_an_unwritable_path_is_one_line_and_leaves_nothing(demo, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    before = tree(tmp_path)
    line = one_line_error(report(demo, tmp_path, "register", *YEAR, "-o", str(blocker / "r.pdf")))
    assert "--out" in line
    assert tree(tmp_path) == before


@pytest.mark.skipif(sys.platform != "linux", reason="/proc refuses new files on Linux only")
def test_a_folder_that_refuses_the_file_is_one_line(demo, tmp_path):
    line = one_line_error(report(demo, tmp_path, "register", *YEAR, "-o", "/proc/r.pdf"))
    assert "--out" in line and "nothing was written" in line
    assert not list(demo.parent.glob(".*.part"))


def test_the_call_log_from_the_command_line(demo, tmp_path):
    """Issue 16: ``fieldops report calls`` (the citations register is its sibling: the
    services' tests print it), the demo's calls in every state."""
    log = tmp_path / "calls.csv"
    result = report(demo, tmp_path, "calls", *YEAR, "-o", str(log))
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(log.read_text("utf-8-sig"), newline="")))
    assert rows[0][:3] == ["No.", "Received", "Kind"] and rows[0][5:7] == ["Officer", "Outcome"]
    assert len(rows) - 1 == int(result.stdout.split()[0]) > 5
    assert {r[6] for r in rows[1:]} >= {"Not dispatched", "Impounded"}  # the demo's states
    assert '"report": "calls"' in _exports(demo)[-1]
