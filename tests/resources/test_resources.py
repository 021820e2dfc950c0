"""The files that are not code are found through fieldops.resources, installed or not."""

from __future__ import annotations

import shutil
import struct
import sys
import xml.etree.ElementTree as ET
from configparser import ConfigParser
from pathlib import Path

import pytest

from fieldops import resources

REPO = Path(__file__).resolve().parents[2]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("size", resources.ICON_SIZES)
def test_the_icon_is_rendered_at_every_size_the_installers_need(size):
    assert png_size(resources.read_bytes(resources.icon_png(size))) == (size, size)


def test_the_icon_source_and_the_windows_icon_are_shipped():
    svg = ET.fromstring(resources.read_bytes(resources.ICON_SVG))
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    ico = resources.read_bytes(resources.ICON_ICO)
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 5
    sides = {ico[6 + 16 * i] or 256 for i in range(count)}
    assert {16, 32, 48, 256} <= sides


def test_the_stylesheet_is_found_and_is_the_app_look():
    qss = resources.read_text(resources.STYLESHEET)
    assert "#NavigationWidget" in qss and "QMainWindow" in qss
    assert not (REPO / "ui" / "style.qss").exists(), "one stylesheet, in resources/"


def test_the_letterhead_mark_is_a_png_sharp_enough_to_print():
    width, height = png_size(resources.read_bytes(resources.LETTERHEAD_MARK))
    assert width == height >= 128


def test_the_desktop_entry_starts_the_app_with_its_icon():
    entry = ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read_string(resources.read_text(resources.DESKTOP_FILE))
    desktop = entry["Desktop Entry"]
    assert desktop["Type"] == "Application"
    assert desktop["Exec"].split()[0] == "fieldops"
    assert desktop["Icon"] == resources.APP_ID
    assert "Office" in desktop["Categories"].split(";")


def test_the_appstream_metadata_names_the_desktop_entry():
    component = ET.fromstring(resources.read_bytes(resources.METAINFO))
    assert component.get("type") == "desktop-application"
    assert component.findtext("id") == resources.APP_ID
    assert component.findtext("launchable") == resources.DESKTOP_FILE
    assert component.find("provides/binary").text == "fieldops"


def test_a_missing_resource_is_named():
    with pytest.raises(resources.ResourceMissing, match=r"icons/nope.png"):
        resources.read_bytes("icons/nope.png")


@pytest.fixture
def installed_only(tmp_path, monkeypatch):
    """The resources as an installed package, with no source checkout to fall back on."""
    shutil.copytree(
        REPO / "resources",
        tmp_path / resources.PACKAGE,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(resources, "_source_root", lambda: None)
    sys.modules.pop(resources.PACKAGE, None)
    yield tmp_path / resources.PACKAGE
    sys.modules.pop(resources.PACKAGE, None)


def test_installed_resources_are_read_through_the_package(installed_only):
    assert Path(str(resources.root())) == installed_only
    assert resources.read_text(resources.STYLESHEET) == (
        REPO / "resources" / "style.qss"
    ).read_text(encoding="utf-8")
    assert png_size(resources.read_bytes(resources.icon_png(16))) == (16, 16)
    assert set(resources.example_profiles()) >= {"city", "dodgeville", "village"}


def test_without_the_package_the_error_says_to_reinstall(monkeypatch):
    monkeypatch.setattr(resources, "_source_root", lambda: None)
    monkeypatch.setattr(resources, "PACKAGE", "fieldops_resources_not_installed")
    with pytest.raises(resources.ResourceMissing, match="reinstall"):
        resources.read_text(resources.STYLESHEET)
