"""The core and the front end type-check, near-strict (pyproject.toml's [tool.mypy]).

A None where a row or a time is expected, a widget taken for another, or a page
missing the method the main window calls is caught before it runs.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_config_checks_the_core_and_the_front_end_strictly():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert set(config["files"]) >= {"fieldops", "ui"}
    assert config["strict"] is True
    assert config["warn_unused_ignores"] is True
    assert "ignore_missing_imports" not in config  # only per module (ReportLab ships no types)


def test_mypy_finds_nothing_in_the_core_or_the_front_end():
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-1000:]
