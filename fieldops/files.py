"""Writing a user's files to disk: all of a document or none of it, and private.

One writer for the command line and the window alike, so a full disk, a
killed process or a bad folder never leaves half a document under its real
name. Documents, the database and its journals, and logs hold people's names
and addresses, so FieldOps makes every file it writes readable by its owner
only (0600) and every folder it creates 0700, from the first byte (the mode is
given to ``open``/``mkdir``, never set afterwards, so no interrupted write is
ever world-readable).

Modes apply on Linux and macOS. On Windows ``os.open`` and ``os.mkdir`` ignore
them (only the read-only bit exists); there the files live in the user's
profile folder, whose access list already admits only that user, the system
and administrators, and a file created in it inherits that list.
"""

from __future__ import annotations

import contextlib
import os
import stat
import uuid
from pathlib import Path
from typing import TextIO

#: A file only its owner may read or write: documents, databases, journals, logs.
PRIVATE_FILE = stat.S_IRUSR | stat.S_IWUSR  # 0600
#: A folder only its owner may list or enter.
PRIVATE_FOLDER = stat.S_IRWXU  # 0700


#: The longest file name the file systems FieldOps writes to keep (bytes, ext4 and NTFS alike).
NAME_MAX = 255
_PART_TAIL = 14  # ".1234abcd.part"


def part_path(target: Path) -> Path:
    """The temporary file a whole file is written to beside ``target``, then renamed over it:
    hidden, unique, and within ``NAME_MAX`` however long the target's own name is."""
    name = target.name
    while len(name.encode()) > NAME_MAX - 1 - _PART_TAIL:
        name = name[:-1]
    return target.with_name(f".{name}.{uuid.uuid4().hex[:8]}.part")


def write_whole_file(path: str | os.PathLike[str], content: bytes) -> Path:
    """Write ``content`` to ``path`` all or nothing; returns the path written.

    The bytes go to a temporary file beside the target and are renamed over it
    only once they are on disk (fsync, then rename, then fsync of the folder so
    the rename itself survives a crash). On any failure the temporary file is
    removed and the error is raised unchanged: the target is either the old
    file or the whole new one.
    """
    target = Path(path)
    temp = part_path(target)
    # Owner-only from the first byte, whatever the umask: a register or a record copy
    # names people, so even one saved to a shared folder is not readable by the others
    # there until its owner chooses to share it (issue 13, "Files").
    fd = os.open(
        temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), PRIVATE_FILE
    )
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
    sync_folder(target.parent)
    return target


def make_private_folder(folder: str | os.PathLike[str]) -> Path:
    """Create ``folder`` (and any missing parent) owner-only (0700); returns it.

    Only the folders created here are given that mode: an existing one is the
    user's choice and is left as it is (``tighten_own`` is for FieldOps's own
    files). Creating missing parents 0700 is what the XDG base directory
    specification asks of a program that creates its data folder.
    """
    path = Path(folder)
    missing: list[Path] = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for part in reversed(missing):
        try:
            os.mkdir(part, PRIVATE_FOLDER)
        except FileExistsError:  # made meanwhile by another process: leave it as it is
            continue
        os.chmod(part, PRIVATE_FOLDER)  # the umask may have taken bits the owner needs
    if not path.is_dir():
        raise NotADirectoryError(f"{path} is not a folder")
    return path


def tighten_own(path: str | os.PathLike[str], mode: int) -> bool:
    """Remove group and other access from a file or folder this user owns; True if changed.

    For FieldOps's own files made before it wrote them private (a database created
    0644 by an older version or another tool, a data folder created 0755). A file
    owned by someone else, or missing, is left alone.
    """
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not hasattr(os, "geteuid") or st.st_uid != os.geteuid():
        return False  # Windows (see the module's docstring), or not ours to change
    current = stat.S_IMODE(st.st_mode)
    wanted = current & mode
    if wanted == current:
        return False
    try:
        os.chmod(path, wanted)
    except OSError:
        return False
    return True


def open_private_log(path: str | os.PathLike[str]) -> TextIO:
    """Open a log file for appending, created owner-only (0600) in a folder made 0700.

    A log made world-readable by an older version is made owner-only first.
    """
    target = Path(path)
    make_private_folder(target.parent)
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE)
    try:
        tighten_own(target, PRIVATE_FILE)
        return os.fdopen(fd, "a", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def sync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename into it) to disk, where the platform can."""
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


def read_only_uri(path: Path) -> str:
    """A SQLite URI that opens ``path`` read-only and creates no ``-wal``/``-shm`` beside it.

    With no journal beside it the file holds every committed change, and
    ``immutable=1`` reads it without creating any; otherwise someone may be
    writing, and ``mode=ro`` reads through the journal that is already there.
    """
    uri = path.absolute().as_uri()
    journals = [path.with_name(path.name + s) for s in ("-wal", "-journal")]
    if any(os.path.lexists(j) for j in journals):
        return f"{uri}?mode=ro"
    return f"{uri}?mode=ro&immutable=1"
