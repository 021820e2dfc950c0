"""Writing a user's document to disk: all of it or none of it.

One writer for the command line and the window alike, so a full disk, a
killed process or a bad folder never leaves half a document under its real
name.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from pathlib import Path


def write_whole_file(path: str | os.PathLike[str], content: bytes) -> Path:
    """Write ``content`` to ``path`` all or nothing; returns the path written.

    The bytes go to a temporary file beside the target and are renamed over it
    only once they are on disk (fsync, then rename, then fsync of the folder so
    the rename itself survives a crash). On any failure the temporary file is
    removed and the error is raised unchanged: the target is either the old
    file or the whole new one.
    """
    target = Path(path)
    temp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.part")
    # os.open rather than mkstemp: the file gets the user's usual permissions (umask),
    # not mkstemp's owner-only ones, so a register saved to a shared folder stays readable.
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(content)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(target.parent)
    return target


def _sync_folder(folder: Path) -> None:
    # Not every platform can open a folder (Windows cannot); the rename is then
    # as durable as the platform makes it.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
