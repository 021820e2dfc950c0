"""``fieldops licence renewals`` (issue 15), by subprocess: the letters PDF, the list and
the non-compliance list as CSV, and one-line refusals with their exit codes."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from accounts_support import login_as_demo_supervisor
from pypdf import PdfReader
from test_cli import run

from fieldops.cli_guard import EXIT_USER
from fieldops.rules import Profile
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.context import Actor
from fieldops.services.licences.issue import LicenceInput, issue_licence
from fieldops.services.people import PersonInput, create_person


@pytest.fixture(scope="module")
def db_path(tmp_path_factory):
    from fieldops.services.demo_accounts import ensure_demo_staff
    from fieldops.services.setup import open_database

    path = tmp_path_factory.mktemp("lic") / "l.db"
    opened = open_database(str(path))
    from fieldops.services.context import os_username

    ensure_demo_staff(opened.db, None, os_username())
    opened.db.dispose()
    login_as_demo_supervisor(path)
    opened = open_database(str(path))
    db, actor, profile = opened.db, Actor("demo-supervisor", "supervisor"), Profile.default()
    owners = [
        create_person(db, actor, PersonInput(full_name="O'Brien & <Sons>", address="1 Elm St")),
        create_person(db, actor, PersonInput(full_name="Cy Moss", address="9 Ash St")),
    ]
    for n, (name, owner) in enumerate((("Rex", 0), ("Bo", 0), ("Max", 1))):
        dog = create_animal(
            db,
            actor,
            AnimalInput(species="dog", name=name, owner_id=owners[owner].id, altered=True),
            today=date(2026, 1, 1),
        )
        issue_licence(
            db,
            actor,
            LicenceInput(
                animal_id=dog.id,
                licence_year=2025,
                tag_number=f"25-{n}",
                applied_on=date(2025, 2, 1),
                rabies_vaccinated_on=date(2025, 1, 2),
            ),
            profile,
        )
    db.dispose()
    return str(path)


def test_letters_one_page_a_household(db_path, tmp_path):
    out = tmp_path / "letters.pdf"
    result = run("--db", db_path, "licence", "renewals", "--year", "2026", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "3 dogs in 2 households" in result.stdout
    pages = [p.extract_text() for p in PdfReader(out).pages]
    assert len(pages) == 2
    first = next(p for p in pages if "Rex" in p)
    assert "O'Brien & <Sons>" in first and "Bo" in first and "Max" not in first


def test_the_list_and_the_non_compliance_list_as_csv(db_path, tmp_path):
    out = tmp_path / "list.csv"
    result = run(
        "--db",
        db_path,
        "licence",
        "renewals",
        "--year",
        "2026",
        "-o",
        str(out),
        "--date",
        "2026-03-01",
    )
    assert result.returncode == 0, result.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert rows[0][0] == "Owner" and sorted(r[2] for r in rows[1:]) == ["Bo", "Max", "Rex"]
    assert {r[-1] for r in rows[1:]} == {"no"}
    result = run(
        "--db",
        db_path,
        "licence",
        "renewals",
        "--year",
        "2026",
        "-o",
        str(out),
        "--late",
        "--date",
        "2026-06-01",
    )
    assert result.returncode == 0 and "3 dogs past" in result.stdout


def test_a_bad_year_is_refused_in_one_line(db_path, tmp_path):
    result = run("--db", db_path, "licence", "renewals", "--year", "20x6", "-o", "x.csv")
    assert result.returncode == EXIT_USER and "--year" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "option"),
    [
        # a year whose licences are not on sale yet (from 1 January of the year before)
        (("--year", "2199", "-o", "r.csv"), "--year"),
        (("--year", "2199", "-o", "r.pdf"), "--year"),
        # a letters' day before this year's licences went on sale
        (("--year", "2026", "-o", "r.csv", "--date", "2020-01-01"), "--date"),
        (("--year", "2026", "-o", "r.pdf", "--date", "2024-12-31"), "--date"),
    ],
)
def test_a_year_not_on_sale_on_the_letters_day_is_refused_not_a_bug(
    db_path, tmp_path, args, option
):
    # It said "something went wrong; this is a bug" and exited 70: a year or day a clerk
    # can type is a refusal naming the option, with the status of a refused request.
    args = tuple(str(tmp_path / a) if a.startswith("r.") else a for a in args)
    result = run("--db", db_path, "licence", "renewals", *args)
    assert result.returncode == EXIT_USER, result.stderr
    line = result.stderr.strip()
    assert len(line.splitlines()) == 1 and "Traceback" not in line and "bug" not in line
    assert option in line and "sold from" in line
    assert not list(tmp_path.iterdir())  # no file written


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--year", "2026", "-o", "x.txt"), ".pdf"),
        (("--year", "2026", "-o", "x.\x07bell.pdf"), "--out"),  # as report -o refuses it
    ],
)
def test_other_refusals_name_their_option(db_path, tmp_path, capsys, args, words):
    from fieldops.cli import main

    args = tuple(str(tmp_path / a) if a.startswith("x.") else a for a in args)
    assert main(["--db", db_path, "licence", "renewals", *args]) == EXIT_USER
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("day", ["1/3/2026", "2026-02-30", "9999-12-31", "1899-12-31"])
def test_a_letters_day_that_is_not_one_or_out_of_range_is_a_command_line_error(
    db_path, tmp_path, capsys, day
):
    """README, "Exit codes": as for every other date option, status 2."""
    from fieldops.cli import main

    out = tmp_path / "letters.pdf"
    args = ["--db", db_path, "licence", "renewals", "--year", "2027", "-o", str(out)]
    assert main([*args, "--date", day]) == 2
    err = capsys.readouterr().err
    assert "--date" in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())
