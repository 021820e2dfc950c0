"""Issue 14: the bundle is built from a locked set of dependency versions with hashes,
and the installers take the app's one version number."""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from fieldops import __version__

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "installer"


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]).lower()


def _locked() -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) of every requirement in requirements.lock."""
    text = (INSTALLER / "requirements.lock").read_text().replace("\\\n", " ")
    out = {}
    for line in text.splitlines():
        if m := re.match(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip()):
            out[_name(m.group(1))] = (m.group(2), re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return out


def test_every_runtime_dependency_and_pyinstaller_is_locked_with_hashes():
    with (ROOT / "pyproject.toml").open("rb") as f:
        wanted = {_name(r) for r in tomllib.load(f)["project"]["dependencies"]}
    locked = _locked()
    assert wanted | {"pyinstaller", "shiboken6"} <= set(locked)
    assert all(hashes for _, hashes in locked.values())
    # pyproject's upper bound keeps PySide6 below 6.12 (tests/ui/test_binding.py)
    assert locked["pyside6-essentials"][0] == locked["shiboken6"][0]
    assert locked["pyside6-essentials"][0].startswith("6.11.")


def test_the_build_installs_only_what_the_lock_pins():
    for script in ("build.sh", "build.ps1"):
        text = (INSTALLER / script).read_text()
        assert "--require-hashes" in text and "requirements.lock" in text, script
        assert "--no-build-isolation" in text, script  # setuptools comes from the lock


def test_the_installers_take_the_one_version_number():
    iss = (INSTALLER / "fieldops.iss").read_text()
    assert "AppVersion={#Version}" in iss and "fieldops-{#Version}" in iss
    assert not re.search(r"\b\d+\.\d+\.\d+\b", iss.replace("X.Y.Z", ""))
    assert '"bundle.py") --version' in (INSTALLER / "build.ps1").read_text()
    # AppStream lists releases; the newest must be this one.
    meta = ET.parse(ROOT / "resources" / "org.example.FieldOps.metainfo.xml")
    newest = meta.getroot().find("releases/release")
    assert newest is not None and newest.get("version") == __version__
