"""Is a SQLite database file on a network share? Then FieldOps refuses to open it.

SQLite relies on the file system's locks, and network file systems (NFS, SMB/CIFS,
sshfs, 9p, AFS...) implement them unreliably or not at all: two workstations
writing one file over a share can corrupt it or lose acknowledged saves, and a
crash of the server or of the network can leave the write-ahead log half-applied
(https://www.sqlite.org/useovernet.html; WAL mode, which FieldOps uses, needs
shared memory that a share cannot give at all: https://www.sqlite.org/wal.html).
Several workstations share one PostgreSQL database instead
(``fieldops migrate-to URL``).

How each platform is asked where a path lives:

* Linux: ``/proc/self/mountinfo``; the mount whose mount point is the longest
  prefix of the path (the last one mounted there wins), and its file-system type.
* macOS: ``statfs(2)`` through ctypes; a volume without ``MNT_LOCAL`` is remote
  (``os.statvfs`` has no file-system type or flags there).
* Windows: a UNC path (``\\\\server\\share\\...``) or a drive letter that
  ``GetDriveTypeW`` says is ``DRIVE_REMOTE`` (a mapped network drive).

Every platform's decision is a pure function of what the system said
(``linux_placement``, ``darwin_placement``, ``windows_placement``), so each is
tested here with the answers injected; only the asking is platform-bound. When
the system cannot be asked at all, the path is taken to be local: refusing a
database because /proc is unreadable would be worse than the risk it guards.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath

from fieldops import failures
from fieldops.errors import UserError

#: File-system types (Linux's names, as /proc/self/mountinfo gives them) that are shares.
NETWORK_FILE_SYSTEMS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "smb2",
        "ncpfs",
        "9p",
        "afs",
        "coda",
        "ceph",
        "glusterfs",
        "lustre",
        "gfs2",
        "ocfs2",
        "davfs",
        "fuse.sshfs",
        "fuse.davfs2",
        "fuse.glusterfs",
        "fuse.cephfs",
        "fuse.rclone",
        "fuse.s3fs",
        "fuse.smbnetfs",
        "fuse.gvfsd-fuse",
    }
)

#: macOS: the volume is on this computer (sys/mount.h).
MNT_LOCAL = 0x00001000
#: macOS names of network file systems, for the message (the flag decides).
DARWIN_NETWORK = frozenset({"nfs", "smbfs", "afpfs", "webdav", "cifs", "ftp", "macfuse"})
#: Windows GetDriveTypeW: a network drive.
DRIVE_REMOTE = 4


@dataclass(frozen=True)
class Placement:
    """Where a path lives: its file system's type and the mount (or share) holding it."""

    fs_type: str
    mount: str
    network: bool


class NetworkShareError(UserError):
    """A SQLite database on a network share, where SQLite's locking is unreliable."""

    code = "network_share"
    failure_kind = failures.NETWORK_SHARE  # its own exit status (README)


# --- Linux ------------------------------------------------------------------------------


def _unescape(field: str) -> str:
    # mountinfo writes space, tab, newline and backslash in a path as octal escapes.
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 3 < len(field) and field[i + 1 : i + 4].isdigit():
            out.append(chr(int(field[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> list[tuple[str, str, str]]:
    """(mount point, file-system type, source) of each line of /proc/self/mountinfo.

    A line is ``id parent major:minor root mountpoint options [optional...] - type source
    superoptions``; lines that do not have that shape are skipped.
    """
    mounts = []
    for line in text.splitlines():
        fields = line.split(" ")
        try:
            dash = fields.index("-", 6)
        except ValueError:
            continue
        if len(fields) < dash + 3:
            continue
        mounts.append((_unescape(fields[4]), fields[dash + 1], _unescape(fields[dash + 2])))
    return mounts


def _within(path: str, mount: str) -> bool:
    return mount == "/" or path == mount or path.startswith(mount.rstrip("/") + "/")


def linux_placement(path: str, mountinfo: str) -> Placement | None:
    """The mount holding the absolute, resolved ``path``; None when none is listed."""
    best: tuple[str, str, str] | None = None
    for mount in parse_mountinfo(mountinfo):
        # ">=": a later mount on the same point hides the earlier one
        if _within(path, mount[0]) and (best is None or len(mount[0]) >= len(best[0])):
            best = mount
    if best is None:
        return None
    point, fs_type, source = best
    network = fs_type in NETWORK_FILE_SYSTEMS or fs_type.split(".")[0] in NETWORK_FILE_SYSTEMS
    where = f"{source} mounted at {point}" if source and source != "none" else point
    return Placement(fs_type, where, network)


# --- macOS ------------------------------------------------------------------------------


def darwin_placement(fs_type: str, flags: int, mount: str) -> Placement:
    """What ``statfs`` said of a volume: remote unless it carries ``MNT_LOCAL``."""
    return Placement(fs_type, mount, not flags & MNT_LOCAL)


class _DarwinStatfs(ctypes.Structure):
    # struct statfs with 64-bit inodes (sys/mount.h), the only layout on Apple silicon
    # and the one "statfs$INODE64" fills on Intel.
    _fields_ = [
        ("f_bsize", ctypes.c_uint32),
        ("f_iosize", ctypes.c_int32),
        ("f_blocks", ctypes.c_uint64),
        ("f_bfree", ctypes.c_uint64),
        ("f_bavail", ctypes.c_uint64),
        ("f_files", ctypes.c_uint64),
        ("f_ffree", ctypes.c_uint64),
        ("f_fsid", ctypes.c_int32 * 2),
        ("f_owner", ctypes.c_uint32),
        ("f_type", ctypes.c_uint32),
        ("f_flags", ctypes.c_uint32),
        ("f_fssubtype", ctypes.c_uint32),
        ("f_fstypename", ctypes.c_char * 16),
        ("f_mntonname", ctypes.c_char * 1024),
        ("f_mntfromname", ctypes.c_char * 1024),
        ("f_flags_ext", ctypes.c_uint32),
        ("f_reserved", ctypes.c_uint32 * 7),
    ]


def _ask_darwin(path: str) -> Placement | None:  # pragma: no cover - macOS only
    libc = ctypes.CDLL(None, use_errno=True)
    fn = getattr(libc, "statfs$INODE64", None) or libc.statfs
    buf = _DarwinStatfs()
    if fn(os.fsencode(path), ctypes.byref(buf)) != 0:
        return None
    name = buf.f_fstypename.decode(errors="replace")
    mount = buf.f_mntonname.decode(errors="replace")
    return darwin_placement(name, buf.f_flags, mount)


# --- Windows ----------------------------------------------------------------------------


def windows_placement(path: str, drive_type: Callable[[str], int]) -> Placement:
    """A UNC path is a share; a drive letter is one when ``drive_type(root)`` is remote."""
    text = path.replace("/", "\\")
    if text.upper().startswith("\\\\?\\UNC\\"):  # \\?\UNC\server\share\...
        text = "\\\\" + text[8:]
    elif text.startswith(("\\\\?\\", "\\\\.\\")):  # \\?\C:\... : a drive path
        text = text[4:]
    if text.startswith("\\\\"):
        share = "\\".join(text.split("\\")[:4])
        return Placement("UNC path", share, True)
    if len(text) >= 2 and text[1] == ":":
        root = text[:2] + "\\"
        remote = drive_type(root) == DRIVE_REMOTE
        return Placement("network drive" if remote else "drive", root, remote)
    return Placement("drive", PureWindowsPath(text).anchor, False)


def _ask_windows(path: str) -> Placement:  # pragma: no cover - Windows only
    kernel32 = ctypes.WinDLL("kernel32")  # type: ignore[attr-defined,unused-ignore]

    def drive_type(root: str) -> int:
        return int(kernel32.GetDriveTypeW(ctypes.c_wchar_p(root)))

    return windows_placement(path, drive_type)


# --- the check --------------------------------------------------------------------------


def _existing(path: Path) -> Path:
    """The path itself, or its nearest folder that exists (a new database's)."""
    probe = path.absolute()
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe.resolve()


def placement(path: Path, *, platform: str | None = None) -> Placement | None:
    """Where the file at ``path`` (or would be) lives; None when the system cannot say."""
    platform = platform or sys.platform
    if platform == "win32":
        return _ask_windows(str(path.absolute()))  # pragma: no cover
    where = str(_existing(path))
    if platform == "darwin":  # pragma: no cover
        try:
            return _ask_darwin(where)
        except (OSError, AttributeError):
            return None
    mountinfo = read_mountinfo()
    return None if mountinfo is None else linux_placement(where, mountinfo)


def read_mountinfo() -> str | None:
    """This process's mount table (Linux); None when it cannot be read."""
    try:
        return Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def network_share_message(path: Path, where: Placement) -> str:
    return (
        f"The database {path} is on a network share ({where.fs_type}, {where.mount}). "
        "FieldOps will not use a SQLite database there: SQLite's file locking is "
        "unreliable over network file systems, and two workstations saving at once could "
        "damage it or lose records (https://www.sqlite.org/useovernet.html). Keep the "
        "database on this computer's own disk (--db PATH); for several workstations, copy "
        "it to a PostgreSQL server with 'fieldops --db PATH migrate-to "
        "postgresql+psycopg://USER@SERVER/DATABASE' and set FIELDOPS_DATABASE_URL (or "
        "--db) to that URL on each workstation. Nothing was opened or changed."
    )


def refuse_network_share(path: Path, *, where: Placement | None = None) -> None:
    """Raise ``NetworkShareError`` when the SQLite file at ``path`` is on a network share."""
    found = where if where is not None else placement(path)
    if found is not None and found.network:
        raise NetworkShareError(network_share_message(path, found))
