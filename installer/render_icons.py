"""Render the app icon's PNGs, the Windows .ico and the letterhead mark from fieldops.svg.

Run after changing an SVG in resources/icons, then commit what it writes:

    QT_QPA_PLATFORM=offscreen python installer/render_icons.py

Sizes are fieldops.resources.ICON_SIZES. This is a build tool like the rest
of installer/: it lives outside resources/ so that no code is installed with
the resource files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QImageWriter, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "resources" / "icons"
sys.path.insert(0, str(ROOT))

from fieldops import resources  # noqa: E402

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # the .ico format stops at 256
SMALL = 16  # drawn from fieldops-small.svg, on the pixel grid: the big one blurs into a blob
LETTERHEAD_SIZE = 256  # about 0.5 inch on paper at 500 dpi: sharp when printed


def render(renderer: QSvgRenderer, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def write_ico(images: list[QImage], path: Path) -> None:
    """An .ico holding every size as a PNG entry (the layout Windows Vista and later read)."""
    entries = [(img.width(), png_bytes(img)) for img in images]
    header = (
        (0).to_bytes(2, "little") + (1).to_bytes(2, "little") + len(entries).to_bytes(2, "little")
    )
    offset = 6 + 16 * len(entries)
    directory, blobs = b"", b""
    for size, blob in entries:
        side = 0 if size >= 256 else size  # 0 means 256 in an icon directory
        directory += (
            bytes([side, side, 0, 0]) + (1).to_bytes(2, "little") + (32).to_bytes(2, "little")
        )
        directory += len(blob).to_bytes(4, "little") + (offset + len(blobs)).to_bytes(4, "little")
        blobs += blob
    path.write_bytes(header + directory + blobs)


def icon_image(size: int) -> QImage:
    """The icon ``size`` pixels square, from the SVG drawn for that size."""
    name = "fieldops-small.svg" if size == SMALL else "fieldops.svg"
    renderer = QSvgRenderer(str(HERE / name))
    if not renderer.isValid():
        raise ValueError(f"{name} could not be read")
    return render(renderer, size)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (Qt needs one)
    root = ROOT / "resources"
    for size in resources.ICON_SIZES:
        writer = QImageWriter(str(root / resources.icon_png(size)), b"png")
        if not writer.write(icon_image(size)):
            print(f"could not write {size} px: {writer.errorString()}", file=sys.stderr)
            return 1
    write_ico([icon_image(s) for s in ICO_SIZES], root / resources.ICON_ICO)
    icon_image(LETTERHEAD_SIZE).save(str(root / resources.LETTERHEAD_MARK), "PNG")
    return 0


if __name__ == "__main__":
    sys.exit(main())
