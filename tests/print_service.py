"""A stand-in for the print service's ``lp`` command, for tests of printing."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def install_fake_lp(folder: Path, monkeypatch) -> tuple[Path, Path]:
    """Put an ``lp`` first on PATH that keeps its arguments and its input (the document).

    Returns (arguments file, input file); neither exists until something prints.
    """
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    script = bin_dir / "lp"
    script.write_text(
        '#!/bin/sh\nprintf "%s\\n" "$@" > "$LP_ARGS"\ncat > "$LP_INPUT"\n'
        'echo "request id is Front-7 (1 file(s))"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("LP_ARGS", str(folder / "lp-args"))
    monkeypatch.setenv("LP_INPUT", str(folder / "lp-input"))
    return folder / "lp-args", folder / "lp-input"
