"""The crash test (issue 13, "Tests and figures"): SIGKILL while saving loses nothing.

A child process saves records through the services (people, and now and then an
animal, each with its audit event and a save key) and prints each id once its
commit has returned, flushing at once: a printed id is an acknowledged save.
The parent kills it with SIGKILL at a random moment (the seed is printed, and
``FIELDOPS_CRASH_SEED`` repeats a run), then reopens the file: every
acknowledged id must be there, ``PRAGMA integrity_check`` must say ok and the
audit chain (with every other check of ``fieldops check``) must verify. The
trials share one file, so each one also starts on a file a kill left behind.

Select it with ``-m crash``; the summary line (trials, acknowledged, lost,
integrity) is printed (shown with ``-s`` or ``-rA``) and, when
``FIELDOPS_CRASH_REPORT`` names a file, appended to it for CI to keep.

Run as a script (``python tests/test_crash_safety.py DB_FILE``) it is the child.
"""

from __future__ import annotations

import os
import random
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TRIALS = int(os.environ.get("FIELDOPS_CRASH_TRIALS", "20"))
READY = "ready"


def child(db_file: str) -> None:
    """Save records until killed, printing ``kind id`` after each commit."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from datetime import date

    from fieldops.db.engine import Database
    from fieldops.services.animals import AnimalInput, create_animal
    from fieldops.services.context import Actor
    from fieldops.services.people import PersonInput, create_person

    db = Database(f"sqlite:///{db_file}")
    actor = Actor(username="opal", role="operator", full_name="Opal Operator")
    print(READY, flush=True)
    n = 0
    while True:
        n += 1
        key = str(uuid.uuid4())
        if n % 4 == 0:
            a = create_animal(
                db,
                actor,
                AnimalInput(species="dog", name=f"Crash {n}", breed="Beagle"),
                today=date(2026, 11, 30),
                client_key=key,
            )
            print(f"animal {a.id}", flush=True)
        else:
            p = create_person(
                db,
                actor,
                PersonInput(full_name=f"Crash Person {n}", address=f"{n} Elm St"),
                allow_duplicate=True,
                client_key=key,
            )
            print(f"person {p.id}", flush=True)


class _Output:
    """What the child printed, read straight from its pipe (no buffer of ours can hide a
    line when it is killed)."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self.fd = proc.stdout.fileno()
        self.data = b""
        self.ended = False

    def read_until(self, until: float, *, stop_at: bytes | None = None) -> None:
        while not self.ended and time.monotonic() < until:
            if stop_at is not None and stop_at in self.data:
                return
            ready, _, _ = select.select([self.fd], [], [], max(0.0, until - time.monotonic()))
            if not ready:
                return
            chunk = os.read(self.fd, 65536)
            if not chunk:
                self.ended = True
            self.data += chunk

    def lines(self) -> list[str]:
        """Whole lines only: one cut short by the kill was never an acknowledgement."""
        return [x.decode() for x in self.data.split(b"\n")[:-1]]


def _trial(db_file: Path, rng: random.Random, log: Path) -> list[tuple[str, int]]:
    """One run of the child, killed at a random moment; the saves it acknowledged."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, __file__, str(db_file)], stdout=subprocess.PIPE, stderr=err, env=env
        )
    out = _Output(proc)
    try:
        out.read_until(time.monotonic() + 60, stop_at=READY.encode() + b"\n")
        if out.lines()[:1] != [READY]:
            raise AssertionError(f"the child did not start: {log.read_text()[-2000:]}")
        # Killed while saving: from its first save to most of a second of them.
        out.read_until(time.monotonic() + rng.uniform(0.02, 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        out.read_until(time.monotonic() + 30)  # what it printed before it died
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
    if proc.returncode != -signal.SIGKILL:
        raise AssertionError(f"the child ended by itself ({proc.returncode}): {log.read_text()}")
    acked = []
    for line in out.lines()[1:]:
        kind, _, ident = line.partition(" ")
        assert kind in ("person", "animal") and ident.isdigit(), line
        acked.append((kind, int(ident)))
    return acked


def _present(db_file: Path, acked: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The acknowledged saves missing from the reopened file."""
    con = sqlite3.connect(db_file)
    try:
        have = {
            kind: {r[0] for r in con.execute(f"SELECT id FROM {kind}")}
            for kind in ("person", "animal")
        }
    finally:
        con.close()
    return [(k, i) for k, i in acked if i not in have[k]]


def _integrity(db_file: Path) -> str:
    con = sqlite3.connect(db_file)
    try:
        return ",".join(r[0] for r in con.execute("PRAGMA integrity_check"))
    finally:
        con.close()


@pytest.mark.crash
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_sigkill_while_saving_loses_no_acknowledged_record(tmp_path, sqlite_template):
    from accounts_support import enrol

    from fieldops.check import integrity_problems
    from fieldops.db.engine import Database
    from fieldops.services.context import Actor

    seed = int(os.environ.get("FIELDOPS_CRASH_SEED") or random.SystemRandom().randrange(10**6))
    print(f"crash test seed {seed} (FIELDOPS_CRASH_SEED={seed} repeats it)")
    rng = random.Random(seed)
    db_file = tmp_path / "crash.db"
    shutil.copyfile(sqlite_template, db_file)
    setup = Database(f"sqlite:///{db_file}")
    enrol(setup, Actor(username="opal", role="operator", full_name="Opal Operator"))
    setup.dispose()

    acknowledged, lost, integrity, checks = 0, [], [], []
    started = time.monotonic()
    for _ in range(TRIALS):
        acked = _trial(db_file, rng, tmp_path / "child.log")
        acknowledged += len(acked)
        lost += _present(db_file, acked)
        integrity.append(_integrity(db_file))
        reopened = Database(f"sqlite:///{db_file}")
        try:
            checks.append(integrity_problems(reopened))
        finally:
            reopened.dispose()
    took = time.monotonic() - started
    ok_integrity = sum(r == "ok" for r in integrity)
    ok_checks = sum(not c for c in checks)
    summary = (
        f"crash test: seed={seed} trials={TRIALS} acknowledged={acknowledged} "
        f"lost={len(lost)} integrity_check ok={ok_integrity}/{TRIALS} "
        f"audit chain and checks ok={ok_checks}/{TRIALS} in {took:.1f} s"
    )
    print(summary)
    report = os.environ.get("FIELDOPS_CRASH_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as f:
            f.write(summary + "\n")
    assert lost == [], f"{summary}; lost: {lost[:10]}"
    assert ok_integrity == TRIALS, f"{summary}; {integrity}"
    assert ok_checks == TRIALS, f"{summary}; {[c for c in checks if c][:1]}"
    assert acknowledged >= TRIALS, f"{summary}: too few saves to say anything"


if __name__ == "__main__":
    child(sys.argv[1])
