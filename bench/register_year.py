"""A year's 58-528 register printed from 1,000,000 impoundments: within 30 s and 400 MB.

What a supervisor runs: ``fieldops report register --from 2026-01-01 --to 2026-12-31
--out FILE``, as its own process, once as PDF and once as CSV, on the 1,000,000-
impoundment database of bench/activity.py (ten years, about 100,000 impoundments in
the year; kept between runs). Each figure is the whole command's wall time (start-up,
reading, drawing, writing the file and its audit event) and its peak resident memory
(the kernel's ``ru_maxrss`` for that process, what ``/usr/bin/time -v`` calls
"Maximum resident set size"). Limits are the issue's: 30 s and 400 MB. The time's
ratio is to those 30 s; the CPU time is printed beside (on a busy shared machine the
wall time is the larger).

The command acts as the computer login: a supervisor account mapped to it is added
to the database once (record reports are a supervisor's).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import Result

YEAR = ("2026-01-01", "2026-12-31")
LIMIT_SECONDS = 30.0
LIMIT_MB = 400.0
ACCOUNT = "bench-supervisor"


def _map_login(path: Path) -> None:
    """A supervisor account the command line acts as (``fieldops.services.setup``)."""
    from sqlalchemy import select

    from fieldops.db.engine import Database
    from fieldops.db.models import StaffUser
    from fieldops.services.context import os_username

    db = Database(f"sqlite:///{path}")
    try:
        login = os_username()
        with db.write() as s:
            mapped = s.scalar(select(StaffUser).where(StaffUser.os_user == login))
            if mapped is None:
                s.add(StaffUser(username=ACCOUNT, role="supervisor", os_user=login))
            elif mapped.role != "supervisor" or not mapped.active:
                mapped.role, mapped.active = "supervisor", True
    finally:
        db.dispose()


def _run(path: Path, out: Path) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, peak RSS in MB and the command's output line."""
    command = [
        sys.executable,
        "-m",
        "fieldops.cli",
        "--db",
        str(path),
        "report",
        "register",
        "--from",
        YEAR[0],
        "--to",
        YEAR[1],
        "--out",
        str(out),
    ]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    with tempfile.TemporaryFile() as said, tempfile.TemporaryFile() as errors:
        t0 = time.perf_counter()
        proc = subprocess.Popen(command, stdout=said, stderr=errors, env=env)
        _, status, usage = os.wait4(proc.pid, 0)  # the child's own peak memory and CPU
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        said.seek(0)
        errors.seek(0)
        stdout, stderr = said.read(), errors.read()
    if proc.returncode != 0:
        raise RuntimeError(f"the register failed: {stderr.decode(errors='replace')}")
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    return wall, usage.ru_utime + usage.ru_stime, peak_mb, stdout.decode().strip()


def run(path: Path) -> list[Result]:
    from bench.activity import IMPOUNDMENTS, build

    build(path).dispose()
    _map_login(path)
    results = []
    with tempfile.TemporaryDirectory(prefix="register-year-") as folder:
        for fmt in ("pdf", "csv"):
            out = Path(folder) / f"register.{fmt}"
            wall, cpu, peak, said = _run(path, out)
            print(
                f"   {fmt.upper()}: {said.split(' of the ')[0]}, {out.stat().st_size / 1e6:.1f} MB "
                f"file; {wall:.1f} s wall, {cpu:.1f} s CPU, {peak:.0f} MB peak"
            )
            name = f"year's register {fmt.upper()}, {IMPOUNDMENTS:,} impoundments"
            results += [
                Result(
                    name,
                    wall,
                    "the 30 s the issue allows",
                    LIMIT_SECONDS,
                    1.0,
                    max_seconds=LIMIT_SECONDS,
                ),
                Result(
                    "  its peak memory (RSS)",
                    peak,
                    "the 400 MB the issue allows",
                    LIMIT_MB,
                    1.0,
                    unit="MB",
                    max_value=LIMIT_MB,
                ),
            ]
    return results
