"""The committed PNGs, .ico and letterhead mark are renders of the SVGs in resources/icons.

An SVG edited without running installer/render_icons.py again fails here. A
small tolerance allows for antialiasing differing between Qt versions.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from fieldops import resources

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def render_icons():
    spec = importlib.util.spec_from_file_location(
        "render_icons", REPO / "installer" / "render_icons.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rgba(image: QImage) -> bytes:
    return bytes(image.convertToFormat(QImage.Format.Format_RGBA8888).constBits())


def mean_difference(a: QImage, b: QImage) -> float:
    assert a.size() == b.size()
    x, y = rgba(a), rgba(b)
    return sum(abs(p - q) for p, q in zip(x, y, strict=True)) / len(x)


def shipped(name: str) -> QImage:
    image = QImage()
    assert image.loadFromData(resources.read_bytes(name))
    return image


@pytest.mark.parametrize("size", [16, 32, 256])
def test_the_pngs_are_renders_of_the_svg(qapp, render_icons, size):
    fresh = render_icons.icon_image(size)
    assert mean_difference(fresh, shipped(resources.icon_png(size))) < 1.0


def test_the_letterhead_mark_is_the_badge(qapp, render_icons):
    fresh = render_icons.icon_image(render_icons.LETTERHEAD_SIZE)
    assert mean_difference(fresh, shipped(resources.LETTERHEAD_MARK)) < 1.0
