"""The intake's photo: chosen through the safe file dialog, read off the GUI thread."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from fieldops.services.impounds import Photo
from ui.common.file_dialogs import ask_open_path
from ui.context import AppContext

PHOTO_TYPES = {".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png"}


def photo_from(path: str) -> Photo:
    """Read a photo file (in a task: it may be large or on a slow share)."""
    p = Path(path)
    return Photo(
        p.name, PHOTO_TYPES.get(p.suffix.lower(), "application/octet-stream"), p.read_bytes()
    )


class PhotoField(QWidget):
    """The photo taken at intake, if any: its name and size, Add photo… and Remove."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.photo: Photo | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.photo_name = QLabel("No photo")
        self.photo_button = QPushButton("Add photo…")
        self.remove_photo_button = QPushButton("Remove")
        for b in (self.photo_button, self.remove_photo_button):
            b.setAutoDefault(False)
        self.remove_photo_button.setEnabled(False)
        row.addWidget(self.photo_name, 1)
        row.addWidget(self.photo_button)
        row.addWidget(self.remove_photo_button)
        self.photo_button.clicked.connect(self._on_photo_button_clicked)
        self.remove_photo_button.clicked.connect(self._on_remove_photo_button_clicked)

    def add_photo(self, path: str) -> None:
        self.ctx.tasks.run(photo_from, path, owner=self, on_done=self._set_photo)

    def _set_photo(self, photo: Photo | None) -> None:
        self.photo = photo
        self.photo_name.setText(
            f"{photo.filename} ({len(photo.content) // 1024 + 1} KB)" if photo else "No photo"
        )
        self.remove_photo_button.setEnabled(photo is not None)

    def _on_photo_button_clicked(self) -> None:
        path = ask_open_path(
            self,
            "Add a photo",
            "Photos (*.jpg *.jpeg *.png)",
            self.ctx.db.folder,
            lambda m: self.ctx.errors.tell(m, self),
        )
        if path:
            self.add_photo(path)

    def _on_remove_photo_button_clicked(self) -> None:
        self._set_photo(None)
