"""FieldOps: animal control records for a city. The core never imports Qt.

``__version__`` has one source, pyproject.toml's ``version``: read from the
source tree's pyproject.toml when the package runs from a checkout (so a
checkout never shows an older install's number), else from the installed
package's metadata (a wheel, the bundle: installer/fieldops.spec copies it).
"""

from __future__ import annotations

from pathlib import Path


def read_version(project: Path | None = None) -> str:
    """The app's version: ``project`` (a pyproject.toml) when given, else the checkout's
    pyproject.toml beside this package, else the installed distribution's metadata."""
    project = project or Path(__file__).resolve().parent.parent / "pyproject.toml"
    if project.is_file():
        found = _project_version(project.read_text(encoding="utf-8"))
        if found:
            return found
    from importlib import metadata

    try:
        return metadata.version("fieldops")
    except metadata.PackageNotFoundError:  # neither a checkout nor installed: say so
        return "0+unknown"


def _project_version(text: str) -> str:
    """``version`` of the ``[project]`` table named fieldops, or "" (another project).

    Read line by line rather than with tomllib, which would add its import to every
    start of the app; pyproject.toml states both keys as plain strings."""
    table, name, version = "", "", ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            table = line
        elif table == "[project]" and "=" in line:
            key, _, value = line.partition("=")
            value = value.split("#")[0].strip().strip("\"'")
            if key.strip() == "name":
                name = value
            elif key.strip() == "version":
                version = value
    return version if name == "fieldops" else ""


__version__ = read_version()
