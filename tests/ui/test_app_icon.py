"""The window and every dialog show the FieldOps badge from resources/icons."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage

from fieldops import resources
from ui.app import configure_application

CTRL = Qt.KeyboardModifier.ControlModifier


def shipped(size: int) -> QImage:
    image = QImage()
    assert image.loadFromData(resources.read_bytes(resources.icon_png(size)), "PNG")
    return image.convertToFormat(QImage.Format.Format_ARGB32)


def _alike(drawn: QImage, badge: QImage) -> bool:
    """The same picture: every channel of every pixel within 1 of the shipped PNG's. Qt
    keeps a pixmap premultiplied, and a translucent pixel's colour can come back a unit
    off (PySide6 6.11.3: green 110 for 111 at alpha 90); another picture is further off."""
    if drawn.size() != badge.size():
        return False
    a, b = bytes(drawn.constBits()), bytes(badge.constBits())
    return len(a) == len(b) and all(abs(x - y) <= 1 for x, y in zip(a, b, strict=True))


def shows_the_badge(widget) -> bool:
    icon = widget.windowIcon()
    if icon.isNull():
        return False
    for size in (16, 32, 256):
        drawn = icon.pixmap(size, size).toImage().convertToFormat(QImage.Format.Format_ARGB32)
        if drawn.size().width() != size or not _alike(drawn, shipped(size)):
            return False
    return True


def test_a_different_picture_is_not_taken_for_the_badge():
    badge = shipped(32)
    other = badge.copy()
    other.setPixelColor(16, 16, Qt.GlobalColor.red)
    assert _alike(badge, badge.copy()) and not _alike(other, badge)
    assert not _alike(shipped(16), badge)


def test_the_application_icon_is_the_badge_at_every_rendered_size(qapp):
    configure_application(qapp)
    icon = qapp.windowIcon()
    assert not icon.isNull()
    assert {s.width() for s in icon.availableSizes()} >= set(resources.ICON_SIZES)
    assert shows_the_badge(qapp)


def test_the_desktop_is_told_which_entry_the_app_is(qapp):
    configure_application(qapp)
    assert qapp.desktopFileName() == resources.APP_ID
    assert resources.read_text(resources.DESKTOP_FILE)  # the entry it names is shipped


def test_the_main_window_and_a_dialog_show_the_badge(qtbot, window, wait_dialog):
    assert shows_the_badge(window)
    qtbot.keyClick(window, Qt.Key.Key_N, CTRL)  # a new person
    dialog = wait_dialog("PersonDialog")
    assert shows_the_badge(dialog)
    dialog.reject()
