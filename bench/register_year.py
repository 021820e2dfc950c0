"""A year's 58-528 register written to a file from 1,000,000 impoundments: 30 s, 400 MB.

What a supervisor runs: ``fieldops report register --from 2025-01-01 --to 2025-12-31
--out FILE``, as its own process, once as PDF and once as CSV, on a scratch copy of
the generated city (``bench.generate``: ten years, about 100,000 impoundments in a
year at 1,000,000; the export's audit event goes to the copy). Each figure is the whole command's wall time (start-up,
reading, drawing, writing the file and its audit event) and its peak resident memory
(the kernel's ``ru_maxrss`` for that process, what ``/usr/bin/time -v`` calls
"Maximum resident set size"). Limits are the issue's: 30 s and 400 MB. The time's
ratio is to those 30 s; the CPU time is printed beside (on a busy shared machine the
wall time is the larger).

The command acts as the computer login: a supervisor account mapped to it is added
to the copy (record reports are a supervisor's). A command still running after
``TIMEOUT`` seconds is stopped; its figure is then that time, a miss.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.common import Result

YEAR = ("2025-01-01", "2025-12-31")
TIMEOUT = 300.0
LIMIT_SECONDS = 30.0
LIMIT_MB = 400.0
ACCOUNT = "bench"


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
            if mapped is None:  # the account bench/memory.py maps too, so either may run first
                mapped = s.scalar(select(StaffUser).where(StaffUser.username == ACCOUNT))
                if mapped is None:
                    mapped = StaffUser(username=ACCOUNT)
                    s.add(mapped)
                mapped.os_user = login
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
    with (
        tempfile.TemporaryFile() as said,
        tempfile.TemporaryFile() as errors,
        tempfile.TemporaryFile() as usage_file,
    ):
        t0 = time.perf_counter()
        # Started by a small launcher, not by this process: Linux gives a child the
        # peak memory of the process it was forked from (ru_maxrss survives exec), so
        # a command started from this benchmark, which has held a city's lists, was
        # measured at this process's peak, not its own.
        proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(usage_file.fileno()), *command],
            stdout=said,
            stderr=errors,
            env=env,
            pass_fds=(usage_file.fileno(),),
            start_new_session=True,  # the launcher and the command: one group to stop
        )
        timer = threading.Timer(TIMEOUT, lambda: os.killpg(proc.pid, signal.SIGKILL))
        timer.start()
        try:
            status = proc.wait()
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        usage_file.seek(0)
        figures = usage_file.read().split()
        said.seek(0)
        errors.seek(0)
        stdout, stderr = said.read(), errors.read()
    cpu, peak_kb = (float(figures[0]), float(figures[1])) if len(figures) == 2 else (wall, 0.0)
    if wall >= TIMEOUT:
        return wall, cpu, peak_kb / 1024, "stopped"
    if status != 0:
        raise RuntimeError(f"the register failed: {stderr.decode(errors='replace')}")
    return wall, cpu, peak_kb / 1024, stdout.decode().strip()  # kilobytes on Linux


#: Runs the command as its own child and writes that child's CPU seconds and peak
#: resident kilobytes (``wait4``) to the descriptor it is given; exits as it did.
_LAUNCHER = """
import os, sys, subprocess
fd = int(sys.argv[1])
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
os.write(fd, f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}".encode())
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run(city: Path) -> list[Result]:
    from bench.generate import scratch_copy

    path = scratch_copy(city)
    _map_login(path)
    results = []
    with tempfile.TemporaryDirectory(prefix="register-year-") as folder:
        for fmt in ("pdf", "csv"):
            out = Path(folder) / f"register.{fmt}"
            wall, cpu, peak, said = _run(path, out)
            size = f"{out.stat().st_size / 1e6:.1f} MB file" if out.exists() else "no file"
            print(
                f"   {fmt.upper()}: {said.split(' of the ')[0]}, {size}; {wall:.1f} s wall, "
                f"{cpu:.1f} s CPU, {peak:.0f} MB peak"
            )
            name = f"year's register to a {fmt.upper()} file"
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
