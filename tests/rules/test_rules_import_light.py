"""`fieldops.rules` loads only the standard library and fieldops itself (issue 3, STYLE.md)."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
before = set(sys.modules)
from fieldops import rules
rules.Profile.default()  # loading the shipped profile must stay light too
new = sorted(set(sys.modules) - before)
print(json.dumps([[m, getattr(sys.modules[m], "__file__", None)] for m in new]))
"""

STDLIB_DIRS = {str(Path(sysconfig.get_paths()[key]).resolve()) for key in ("stdlib", "platstdlib")}


def _is_stdlib(name: str, file: str | None) -> bool:
    if name.split(".")[0] in sys.stdlib_module_names:
        return True
    # Platform-named stdlib modules such as _sysconfigdata__linux_x86_64-linux-gnu
    # (zoneinfo reads sysconfig for its search path) are not in stdlib_module_names.
    if file is None:
        return False
    path = str(Path(file).resolve())
    return "site-packages" not in path and any(path.startswith(d) for d in STDLIB_DIRS)


def test_importing_rules_loads_only_stdlib_and_fieldops():
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    loaded = dict(json.loads(result.stdout.strip().splitlines()[-1]))
    assert "fieldops.rules" in loaded
    foreign = [
        m for m, file in loaded.items() if m.split(".")[0] != "fieldops" and not _is_stdlib(m, file)
    ]
    assert foreign == [], f"fieldops.rules imported modules outside the standard library: {foreign}"
    outside_rules = [
        m
        for m in loaded
        if m.startswith("fieldops") and m != "fieldops" and not m.startswith("fieldops.rules")
    ]
    assert outside_rules == [], f"fieldops.rules pulled in other fieldops packages: {outside_rules}"
    for heavy in ("PySide6", "sqlalchemy", "alembic", "reportlab", "tzdata"):
        assert heavy not in loaded
