"""Issue 14: ``fieldops --self-test`` makes, reads back and prints one record of each kind
on a database of its own, a line per step, and exits 0; a failing step is one line
naming it, with the failure's own exit status."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from test_cli_errors import one_line_error, run
from test_failures_cli import run_as_other

from fieldops import modules, selftest
from fieldops.errors import ValidationError
from fieldops.failures import BUG, EXIT_CODES, READ_ONLY, USER
from fieldops.modules import Module, SelfTestResult, SelfTestStep

KINDS = (
    "person",
    "animal",
    "impoundment",
    "payment",
    "release",
    "bite report",
    "quarantine",
    "exam",
    "vicious case",
    "notice",
    "licence",
    "permit",
    "fancier",
)


@pytest.fixture(scope="module")
def passed(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    folder = tmp_path_factory.mktemp("selftest")
    db = folder / "fresh.db"
    (folder / "pdfs").mkdir()
    args = ("--db", str(db), "--self-test", "--self-test-pdfs", str(folder / "pdfs"))
    return run(*args, tmp=folder), db


def test_the_self_test_passes_on_a_new_database_with_a_line_per_step(passed):
    result, db = passed
    assert result.returncode == 0, result.stderr
    assert db.exists()  # the database it was given, created
    lines = result.stdout.splitlines()
    done = [m.group(1).strip() for line in lines if (m := re.match(r"ok {4}(.{13})", line))]
    assert done == list(selftest.step_names())
    assert set(KINDS) <= set(done)
    assert lines[-1].startswith("self-test passed: 15 steps")


# What each record's document must say: its own record, as the step made it.
PRINTED = {
    "impoundment": ("Selftest Owner", "Selftest Rex", "100 Self Test Way"),
    "payment": ("R-SELFTEST",),
    "release": ("Selftest Owner", "Selftest Rex"),
    "bite report": ("Selftest Biter", "Self Test Park"),
    "quarantine": ("Selftest Biter",),
    "exam": ("Dr. Self Test",),
    "vicious case": ("Selftest Vicious",),
    "notice": ("1 Self Test St",),
    "licence": ("Selftest Licensed", "T-SELFTEST"),
    "permit": ("Selftest Owner", "1 Self Test St", "P-SELFTEST"),
    "fancier": ("Selftest Owner", "Selftest Homers"),
}


def test_every_record_is_printed_with_its_own_words_and_the_letterhead(passed):
    result, db = passed
    by_step = {line[6:19].strip(): line for line in result.stdout.splitlines()[:-1]}
    kept = {p.stem.split("-", 1)[1].replace("-", " "): p for p in (db.parent / "pdfs").iterdir()}
    assert set(kept) == set(PRINTED)  # the person and the animal: on the impoundment's sheet
    for kind, words in PRINTED.items():
        assert re.search(r"\(printed: \d+ pages? of text\)$", by_step[kind]), by_step[kind]
        pdf = kept[kind].read_bytes()
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
        assert all(w in text for w in words), (kind, words)
        assert b"/Subtype /Image" in pdf  # the letterhead's badge


def test_a_database_that_holds_records_is_refused_and_left_as_it_was(passed, tmp_path):
    _, db = passed
    before = db.read_bytes()
    said: list[str] = []
    outcome = selftest.run(str(db), out=io.StringIO(), say=said.append)
    assert outcome.code == EXIT_CODES[USER] and outcome.steps == ()
    assert len(said) == 1
    assert "step 'database'" in said[0] and "already holds records" in said[0]
    assert db.read_bytes() == before


def test_a_read_only_folder_fails_the_first_step_in_one_line_with_its_status(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = run_as_other(
            ["--db", str(folder / "new.db"), "--self-test"], tmp=tmp_path, owner_of=None
        )
    finally:
        folder.chmod(0o755)
    line = one_line_error(result)
    assert result.returncode == EXIT_CODES[READ_ONLY], line
    assert "step 'database'" in line
    assert list(folder.iterdir()) == []


# -- a module's steps, in process (only the shared steps and the module's run) ------------


def _only(monkeypatch, *extra: SelfTestStep) -> None:
    monkeypatch.setattr(selftest, "steps", lambda: (*selftest.SHARED_STEPS, *extra))


def _refuse(kit) -> SelfTestResult:
    raise ValidationError({"licence_year": "The licence year is required."})


def _blank(kit) -> SelfTestResult:
    return SelfTestResult("a record", pdf=b"%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n")


@pytest.mark.parametrize(
    ("step", "code", "words"),
    [
        (SelfTestStep("licence", _refuse), EXIT_CODES[USER], "licence year"),
        (SelfTestStep("licence", _blank), EXIT_CODES[BUG], "text on 0"),
    ],
    ids=["refused", "printed-blank"],
)
def test_a_modules_failing_step_is_one_line_naming_it(monkeypatch, tmp_path, step, code, words):
    with modules.extra(Module("licence", "Licences", self_test=(step,))):
        monkeypatch.setattr(
            selftest,
            "steps",
            lambda: (
                *selftest.SHARED_STEPS,
                *(
                    s
                    for m in modules.installed_modules()
                    if m.key == "licence"
                    for s in m.self_test
                ),
            ),
        )
        said: list[str] = []
        out = io.StringIO()
        outcome = selftest.run(str(tmp_path / "m.db"), out=out, say=said.append)
    assert outcome.code == code
    assert outcome.failed_step == "licence"
    assert outcome.steps == ("database", "staff", "person", "animal")
    assert len(said) == 1 and "step 'licence'" in said[0] and words in said[0]


def test_without_db_it_uses_a_temporary_database_never_the_default_one(monkeypatch, tmp_path):
    monkeypatch.delenv("FIELDOPS_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    _only(monkeypatch)
    out = io.StringIO()
    outcome = selftest.run(None, out=out, say=pytest.fail)
    assert outcome.code == 0
    assert "a temporary database" in out.getvalue()
    assert not (tmp_path / "data").exists()


@pytest.mark.postgres
def test_the_self_test_passes_on_postgresql(pg_database):
    from conftest import PG_URL, _truncate_pg

    _truncate_pg(pg_database)
    out = io.StringIO()
    outcome = selftest.run(PG_URL, out=out, say=pytest.fail)
    _truncate_pg(pg_database)  # the tests after it start from an empty database
    assert outcome.code == 0
    assert outcome.steps == tuple(selftest.step_names())
