"""One seam for every module: a module plugs in by registration and touches no other file.

A fake module (tests/fake_module.py) registered here blocks a release, lists a
due item in ``fieldops due --json``, reports an integrity problem in
``fieldops check`` and adds to ``fieldops demo``; the pound is a module like it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date

import fake_module as fake
import pytest
from support import local

from fieldops import modules
from fieldops.cli import main
from fieldops.errors import PermissionDeniedError
from fieldops.services.animals import AnimalInput, create_animal
from fieldops.services.dispositions import (
    ReleaseRequest,
    RequirementsNotMet,
    release,
    release_check,
    transfer,
)
from fieldops.services.impounds import IntakeInput, intake
from fieldops.services.payments import LineInput, PaymentInput, quote, record_payment
from fieldops.services.people import PersonInput, create_person


@pytest.fixture
def profile():
    from fieldops.rules import Profile

    return Profile.default()


@pytest.fixture
def counter(sqlite_db, operator, profile, today):
    """A vaccinated, licensed dog impounded Mon 2 Nov, fees paid for a reclaim on Wed 4 Nov."""
    db = sqlite_db
    ana = create_person(
        db, operator, PersonInput(full_name="Ana Ruiz", address="12 Elm St", city="Madison")
    )
    rex = create_animal(
        db, operator, AnimalInput(species="dog", name="Rex", owner_id=ana.id), today=today
    )
    imp = intake(
        db,
        operator,
        IntakeInput(
            impounded_at=local(2026, 11, 2),
            animal_id=rex.id,
            officer="Off. Lee",
            reason="at_large",
            found_place="Elm & 3rd",
        ),
        profile,
    )
    at = local(2026, 11, 4)
    fees = quote(db, imp.id, at, True, profile)
    record_payment(
        db,
        operator,
        imp.id,
        PaymentInput(
            tuple(LineInput(f.kind, f.amount) for f in fees.lines if f.amount > 0),
            "cash",
            "R-1",
            payer_id=ana.id,
            paid_at=at,
        ),
        profile,
    )
    req = ReleaseRequest(True, ana.id, at=at, rabies_certificate="RV-1", licence_receipt="L-1")
    return db, imp, req


def test_the_pound_is_installed_as_a_module_and_the_placeholders_beside_it():
    keys = [m.key for m in modules.installed_modules()]
    assert keys[:3] == ["impound", "quarantine", "vicious"]
    # Each module's category codes carry its own key (the bite-quarantine module, issue 9,
    # now adds "quarantine." codes beside the pound's).
    assert all(
        code.startswith(f"{m.key}.") for m in modules.installed_modules() for code in m.categories
    )


def test_a_registered_modules_block_refuses_a_release_until_a_supervisor_overrides(
    counter, operator, supervisor, profile, install
):
    db, imp, req = counter
    assert all(c.met for c in release_check(db, imp.id, req, profile))  # the pound's own: met
    install(fake.LEASH)
    checked = {c.requirement.code: c for c in release_check(db, imp.id, req, profile)}
    assert not checked[fake.CODE].met and checked[fake.CODE].module == fake.KEY
    assert checked[fake.CODE].evidence == "Checked for a reclaimed release"
    with pytest.raises(RequirementsNotMet) as exc:
        release(db, operator, imp.id, req, profile)
    assert [r.code for r in exc.value.requirements] == [fake.CODE]
    assert fake.LABEL in str(exc.value)
    overridden = ReleaseRequest(
        **{**req.__dict__, "overrides": {fake.CODE: "Permit renewed by phone, Dr Kim"}}
    )
    with pytest.raises(PermissionDeniedError):
        release(db, operator, imp.id, overridden, profile)
    view = release(db, supervisor, imp.id, overridden, profile)
    ev = {e.code: e for e in view.disposition.evidence}[fake.CODE]
    assert ev.overridden and ev.override_by == "sam" and "Dr Kim" in ev.override_reason


def test_a_registered_modules_block_refuses_a_transfer(counter, operator, profile, install):
    db, imp, _req = counter
    install(fake.LEASH)
    with pytest.raises(RequirementsNotMet) as exc:
        transfer(
            db, operator, imp.id, "Dane County Humane Society", profile, at=local(2026, 11, 12)
        )
    assert [r.code for r in exc.value.requirements] == [fake.CODE]


def test_due_json_merges_every_modules_items_overdue_first(counter, capsys, install):
    db, imp, _req = counter
    url = db.engine.url.database
    install(fake.LEASH)
    assert main(["--db", url, "due", "--date", "2026-11-09", "--json"]) == 0
    items = json.loads(capsys.readouterr().out)["items"]
    assert [(i["module"], i["kind"], i["id"], i["category"]) for i in items] == [
        (fake.KEY, fake.KIND, fake.RECORD_ID, fake.CATEGORY),
        ("impound", "impoundment", imp.id, "impound.hold_ends_today"),
    ]
    assert items[0]["due"] == "2026-11-07" and items[0]["overdue"] is True
    assert items[1]["impoundment_id"] == imp.id and items[1]["due"] == "2026-11-09"
    assert items[0]["category_label"] == fake.CATEGORY_LABEL
    assert main(["--db", url, "due", "--date", "2026-11-09"]) == 0
    text = capsys.readouterr().out
    assert text.index(fake.CATEGORY_LABEL) < text.index("Hold ends today")


def test_check_reports_every_modules_problems(sqlite_db, capsys, install):
    url = sqlite_db.engine.url.database
    assert main(["--db", url, "check"]) == 0
    assert capsys.readouterr().out.strip() == "ok"
    install(fake.LEASH)
    assert main(["--db", url, "check"]) == 1
    assert fake.PROBLEM in capsys.readouterr().out


def test_the_pound_checks_an_impoundment_changed_past_the_services(
    counter, operator, profile, capsys
):
    db, imp, _req = counter
    assert main(["--db", db.engine.url.database, "check"]) == 0
    capsys.readouterr()
    with db.engine.begin() as conn:
        conn.exec_driver_sql(f"UPDATE impoundment SET disposed = 1 WHERE id = {imp.id}")
    assert main(["--db", db.engine.url.database, "check"]) == 1
    assert "1 impoundment(s) are marked disposed but have no disposition" in capsys.readouterr().out
    with db.engine.begin() as conn:
        conn.exec_driver_sql(f"UPDATE impoundment SET disposed = 0 WHERE id = {imp.id}")
    transfer(db, operator, imp.id, "Dane County Humane Society", profile, at=local(2026, 11, 12))
    assert main(["--db", db.engine.url.database, "check"]) == 0
    capsys.readouterr()
    with db.engine.begin() as conn:
        conn.exec_driver_sql(f"UPDATE impoundment SET disposed = 0 WHERE id = {imp.id}")
    assert main(["--db", db.engine.url.database, "check"]) == 1
    assert (
        "1 impoundment(s) have a disposition but are listed as in custody"
        in capsys.readouterr().out
    )


def test_demo_data_grows_by_registration(sqlite_db, supervisor, install):
    from fieldops.demo import fill

    install(fake.LEASH)
    summary = fill(sqlite_db, supervisor, seed=3, people=20, anchor=date(2026, 11, 20))
    assert "impoundments" in summary and "2 leash permits" in summary


def test_a_module_with_a_taken_key_takes_its_place(install):
    tracked = modules.Module("quarantine", "Bite quarantines")
    install(tracked)
    assert [m for m in modules.installed_modules() if m.key == "quarantine"] == [tracked]
    assert modules.installed_modules()[1] is tracked  # in the placeholder's line


def test_modules_are_loaded_only_when_first_asked_for():
    script = (
        "import sys\nimport fieldops.modules, fieldops.cli\n"
        "assert 'fieldops.services.pound' not in sys.modules\n"
        "fieldops.modules.installed_modules()\n"
        "assert 'fieldops.services.pound' in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def _kept_by(key: str, table: str, check) -> modules.Module:
    return modules.Module(key, key.title(), kept_tables={table: check})


def test_a_modules_kept_table_is_not_copied_and_its_check_is_fieldops_checks(
    sqlite_db, capsys, install
):
    from fieldops import migrate_to as mt
    from fieldops.check import integrity_problems

    before = [t.name for t in mt.copied_tables()]
    assert "person_word" not in before  # the core's own kept table
    assert not {"dog_licence_count", "bite_to_send"} & set(before)  # the modules'
    table = before[-1]  # any table of the schema not kept now
    seen = []

    def check(conn):
        seen.append(conn.dialect.name)
        return ["the leash counts differ for 2026"]

    install(_kept_by("leash", table, check))
    assert [t.name for t in mt.copied_tables()] == [n for n in before if n != table]
    problems = integrity_problems(sqlite_db)
    assert problems == ["the leash counts differ for 2026"] and seen == ["sqlite"]
    url = sqlite_db.engine.url.database
    assert main(["--db", url, "check"]) == 1
    assert "the leash counts differ for 2026" in capsys.readouterr().out


def test_one_table_kept_by_two_modules_is_refused(install):
    install(_kept_by("leash", "leash_count", lambda conn: []))
    install(_kept_by("collar", "leash_count", lambda conn: []))
    with pytest.raises(ValueError, match="leash_count"):
        modules.kept_tables()


def test_a_module_keeping_the_cores_table_is_refused(install):
    from fieldops import check

    install(_kept_by("tags", "person_word", lambda conn: []))
    with pytest.raises(ValueError, match="person_word"):
        check.kept_tables()


def _day_item(kind: str, record_id: int, day: date) -> modules.DueItem:
    return modules.DueItem(
        module="tags",
        kind=kind,
        record_id=record_id,
        due=day,
        category="tags.lost",
        category_label="Lost tag to replace",
        text=f"Tag #{record_id}",
    )


def test_today_shows_a_modules_today_items_and_fieldops_due_each_record(
    sqlite_db, capsys, install, profile
):
    from fieldops.services.due import due_items, today_items

    day = date(2026, 11, 9)
    tags = modules.Module(
        "tags",
        "Lost tags",
        due_items=lambda db, d, p: tuple(_day_item("tag", i, d) for i in (1, 2, 3)),
        today_items=lambda db, d, p: (_day_item("tags_list", 2026, d),),
        categories={"tags.lost": "Lost tag to replace"},
    )
    install(tags, fake.LEASH)

    def of(items, key):
        return [(i.kind, i.record_id) for i in items if i.module == key]

    assert of(today_items(sqlite_db, day, profile), "tags") == [("tags_list", 2026)]
    assert of(due_items(sqlite_db, day, profile), "tags") == [("tag", 1), ("tag", 2), ("tag", 3)]
    # A module without today_items is on Today as in fieldops due.
    leash = [(fake.KIND, fake.RECORD_ID)]
    assert of(today_items(sqlite_db, day, profile), fake.KEY) == leash
    assert of(due_items(sqlite_db, day, profile), fake.KEY) == leash
    url = sqlite_db.engine.url.database
    assert main(["--db", url, "due", "--date", day.isoformat(), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["items"]
    assert [i["id"] for i in listed if i["module"] == "tags"] == [1, 2, 3]


def _core_imports(path) -> set[str]:
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


@pytest.mark.parametrize("core", ["check.py", "migrate_to.py", "services/due.py"])
def test_core_files_that_ask_every_module_import_none(core):
    """A later module is its own files and one registration: these core files find the
    modules' kept tables and Today's items through the seam, never by name."""
    from pathlib import Path

    import fieldops

    packages = set()
    for where in modules.INSTALLED:
        path = where.partition(":")[0]
        packages.add(path.removesuffix(".module"))  # a package's module file: the package
    imported = _core_imports(Path(fieldops.__file__).parent / core)
    leaks = sorted(n for n in imported for p in packages if n == p or n.startswith(p + "."))
    assert leaks == []
