"""The benchmark's city generator (bench/generate.py) at a tiny size: a database
``fieldops check`` accepts (audit chain, every record as its trail says, the
modules' copies), and the same rows from two runs."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select

from bench import generate
from fieldops.check import integrity_problems
from fieldops.db.engine import Database
from fieldops.db.models import AuditEvent
from fieldops.db.models.audit import event_body

SIZE = 200


def _filled(template: str, path: Path) -> Path:
    shutil.copyfile(template, path)
    generate.fill(path, SIZE)
    return path


def _digest(path: Path) -> str:
    raw = sqlite3.connect(path)
    try:
        h = hashlib.sha256()
        for line in raw.iterdump():
            h.update(line.encode())
        return h.hexdigest()
    finally:
        raw.close()


@pytest.fixture(scope="module")
def city(tmp_path_factory, sqlite_template) -> Path:
    return _filled(sqlite_template, tmp_path_factory.mktemp("city") / "city.db")


def test_the_generated_city_passes_fieldops_check(city):
    db = Database(f"sqlite:///{city}")
    try:
        assert integrity_problems(db) == []
    finally:
        db.dispose()


def test_the_city_has_what_a_pound_keeps(city):
    raw = sqlite3.connect(city)
    n = lambda sql: raw.execute(sql).fetchone()[0]  # noqa: E731
    try:
        assert n("SELECT count(*) FROM impoundment") == SIZE
        assert n("SELECT count(*) FROM person") == SIZE
        assert n("SELECT count(*) FROM impoundment WHERE NOT disposed") == 1  # 3,218 per million
        assert n("SELECT count(*) FROM quarantine") == SIZE // 5
        assert n("SELECT count(*) FROM vicious_case") == SIZE // 50
        assert n("SELECT count(*) FROM dog_licence") == SIZE * 3 // 10  # 300,000 per million
        assert n("SELECT count(*) FROM payment") > SIZE // 4
        assert n("SELECT count(*) FROM field_call") == SIZE // 2  # 500,000 per million
        # Nearly every call dispatched and closed, its row carrying the last dispatch's state.
        assert n("SELECT count(*) FROM call_dispatch") >= SIZE // 2 - 2
        assert n("SELECT count(*) FROM field_call WHERE status = 'closed'") >= SIZE // 2 - 2
        assert n("SELECT count(*) FROM field_call WHERE recheck_of_id IS NOT NULL") > 0
        assert n("SELECT count(*) FROM call_complaint") > 0
        assert n("SELECT count(*) FROM call_citation") > 0
        assert n("SELECT count(*) FROM caution_flag") >= 1
        assert n("SELECT count(*) FROM permit") >= 1  # 3,000 per million
        assert n("SELECT count(*) FROM permit_issue WHERE paid_amount IS NOT NULL") >= 1
        assert n("SELECT seq FROM audit_chain") == n("SELECT count(*) FROM audit_event")
    finally:
        raw.close()


def test_a_call_out_of_step_with_its_dispatches_fails_the_check(city, tmp_path):
    # The calls module's own check reads the generated calls (not an empty table).
    broken = tmp_path / "broken.db"
    shutil.copyfile(city, broken)
    raw = sqlite3.connect(broken)
    raw.execute("UPDATE field_call SET status = 'open' WHERE id = 1")
    raw.commit()
    raw.close()
    from fieldops.services.calls.module import checks

    db = Database(f"sqlite:///{broken}")
    try:
        with db.engine.connect() as conn:
            assert any("call(s) show a state" in p and "#1" in p for p in checks(conn))
    finally:
        db.dispose()


def test_each_event_is_signed_in_the_canonical_form(city):
    # The chain check re-hashes the stored text; this holds the text itself to the form
    # the services write (fieldops.db.models.audit.event_body).
    db = Database(f"sqlite:///{city}")
    try:
        with db.read() as s:
            events = s.scalars(select(AuditEvent).order_by(AuditEvent.seq)).all()
            for e in events:
                assert e.body == event_body(
                    seq=e.seq,
                    prev_hash=e.prev_hash,
                    at=e.at,
                    actor=e.actor,
                    action=e.action,
                    entity=e.entity,
                    entity_id=e.entity_id,
                    before=e.before,
                    after=e.after,
                    reason=e.reason,
                )
    finally:
        db.dispose()


def test_two_runs_write_the_same_city(city, sqlite_template, tmp_path):
    again = _filled(sqlite_template, tmp_path / "again.db")
    assert _digest(again) == _digest(city)


def test_a_kept_city_is_rebuilt_when_the_generator_changes(tmp_path, monkeypatch):
    built: list[int] = []
    monkeypatch.setattr(generate, "build", lambda path, size: built.append(size) or path.touch())
    generate.ensure(tmp_path, SIZE, quiet=True)
    generate.ensure(tmp_path, SIZE, quiet=True)
    assert built == [SIZE]  # kept between runs
    monkeypatch.setattr(generate, "VERSION", generate.VERSION + "-changed")
    generate.ensure(tmp_path, SIZE, quiet=True)
    assert built == [SIZE, SIZE]


def test_a_kept_city_is_upgraded_in_place_when_only_the_schema_moved(tmp_path, monkeypatch):
    from fieldops.db import migrate

    built: list[int] = []
    upgraded: list[str] = []
    monkeypatch.setattr(generate, "build", lambda path, size: built.append(size) or path.touch())
    monkeypatch.setattr(migrate, "upgrade", lambda engine, url, **kw: upgraded.append(url))
    path = generate.ensure(tmp_path, SIZE, quiet=True)
    stamp = generate.stamp_path(path)
    stamp.write_text(f"{generate.VERSION} 0001\n")  # kept from before a migration landed
    generate.ensure(tmp_path, SIZE, quiet=True)
    assert built == [SIZE]  # not rebuilt
    assert upgraded == [f"sqlite:///{path}"]
    assert stamp.read_text().strip() == generate.stamp_text()


def _fake_suite(first_page_at: dict[int, float]):
    from bench.__main__ import Suite
    from bench.common import Result

    def run(r):
        t = first_page_at[r.size]
        return [Result("list: count and first page", t, "raw", t / 2, 3.0)]

    return Suite("fake", run)


@pytest.mark.parametrize(
    ("times", "code"),
    [({1: 0.010, 2: 0.012}, 0), ({1: 0.010, 2: 0.050}, 1)],
    ids=["flat", "first page grows 5x"],
)
def test_the_harness_exits_non_zero_when_a_first_page_grows(
    monkeypatch, tmp_path, capsys, times, code
):
    import bench.__main__ as harness

    monkeypatch.setattr(harness, "SUITES", (_fake_suite(times),))
    assert harness.main(["--sizes", "1,2", "--dir", str(tmp_path)]) == code
    out = capsys.readouterr().out
    assert "fake: list: count and first page" in out  # one table and the growth table
    assert ("every target met" in out) == (code == 0)


def test_the_city_has_the_schema_the_migrations_make(city, sqlite_template):
    def schema(path):
        raw = sqlite3.connect(path)
        try:
            # sqlite_stat1 is ANALYZE's statistics for the query planner, not schema.
            return sorted(
                raw.execute(
                    "SELECT type, name, tbl_name, sql FROM sqlite_master "
                    "WHERE name NOT LIKE 'sqlite_stat%'"
                )
            )
        finally:
            raw.close()

    assert schema(city) == schema(sqlite_template)


def test_figures_saved_by_two_runs_report_their_growth_together(monkeypatch, tmp_path, capsys):
    import bench.__main__ as harness

    monkeypatch.setattr(harness, "SUITES", (_fake_suite({1: 0.010, 2: 0.050}),))
    for size in ("1", "2"):  # each size measured by its own run
        harness.main(["--sizes", size, "--dir", str(tmp_path), "--save", str(tmp_path / size)])
    capsys.readouterr()
    assert harness.main(["--report", str(tmp_path / "1"), str(tmp_path / "2")]) == 1
    out = capsys.readouterr().out
    assert "5.0x" in out  # the growth table, from the two runs' figures
    assert "1 target(s) missed" in out


def test_a_skipped_suite_does_not_run(monkeypatch, tmp_path, capsys):
    import bench.__main__ as harness
    from bench.__main__ import Suite

    ran: list[int] = []
    other = Suite("other", lambda r: ran.append(r.size) or [])
    monkeypatch.setattr(harness, "SUITES", (_fake_suite({1: 0.01}), other))
    harness.main(["--sizes", "1", "--dir", str(tmp_path), "--skip", "other,startup"])
    assert ran == []
    assert "fake: list: count and first page" in capsys.readouterr().out


def test_a_list_figure_naming_its_row_count_is_paired_across_sizes():
    from bench.common import Result, growth

    small = Result("calls 50,000: open, count and first page", 0.01, "raw", 0.01, 3.0, size=1)
    large = Result("calls 500,000: open, count and first page", 0.05, "raw", 0.01, 3.0, size=2)
    other = Result("calls 500,000: all, last 7 days", 0.05, "raw", 0.01, 3.0, size=2)
    [g] = growth([("calls", small), ("calls", large), ("calls", other)])
    assert (g.small, g.large) == (small, large)
    assert not g.ok  # a first page grown 5x


def test_a_floor_is_shown_for_reading_and_never_counted_as_met_or_missed():
    import math

    from bench.common import Result, table

    floor = Result("impounds 10: floor: raw queries, bare model", 0.002, "raw", 0.0004, math.inf)
    listed = Result("impounds 10: status all", 0.002, "raw", 0.0004, 3.0, 0.1)
    assert floor.for_reading and not listed.for_reading
    assert not listed.ok  # 5x its raw queries
    rows = {
        line.split("|")[0].strip(): line
        for line in table([("s", floor), ("s", listed)]).split("\n")
    }
    floor_row = rows["s: impounds 10: floor: raw queries, bare model"]
    assert "for reading" in floor_row and "yes" not in floor_row and "NO" not in floor_row
    assert rows["s: impounds 10: status all"].rstrip().endswith("NO")
