"""The core never imports Qt (STYLE.md): it must run on a headless server."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_core_and_the_cli_load_without_pyside6():
    script = textwrap.dedent("""
        import importlib, pkgutil, sys
        import fieldops, fieldops.cli
        skipped = ("fieldops.db.migrations",)  # Alembic scripts run only under Alembic
        names = [m.name for m in pkgutil.walk_packages(fieldops.__path__, "fieldops.")
                 if not m.name.startswith(skipped)]
        for name in names:
            importlib.import_module(name)
        assert "fieldops.services.people" in sys.modules
        assert "fieldops.services.animals" in sys.modules
        leaked = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "ui"))
        print(len(names), leaked)
        sys.exit(1 if leaked else 0)
    """)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    count = int(result.stdout.split()[0])
    assert count >= 10, f"only {count} core modules were imported"


def test_the_cli_help_does_not_load_pyside6():
    script = (
        "import sys, contextlib, io\n"
        "from fieldops.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "sys.exit(1 if 'PySide6' in sys.modules else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
