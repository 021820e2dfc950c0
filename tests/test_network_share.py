"""A SQLite database on a network share is refused with an explanation (issue 13,
"Several workstations"): SQLite's locking is unreliable over NFS/SMB.

The decision for each platform is tested with what that platform's system would
say injected (a mount table, statfs flags, a drive type); the whole path (setup,
then the command line) with an injected Linux mount table.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from test_cli_errors import one_line_error, tree

from fieldops.db import placement
from fieldops.db.placement import (
    DRIVE_REMOTE,
    MNT_LOCAL,
    NetworkShareError,
    darwin_placement,
    linux_placement,
    parse_mountinfo,
    windows_placement,
)
from fieldops.failures import EXIT_CODES
from fieldops.services import setup

MOUNTINFO = textwrap.dedent(
    """\
    22 27 0:21 / /proc rw,relatime - proc proc rw
    27 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
    40 27 0:40 / /home rw,relatime shared:20 - nfs4 files.city.local:/export/home rw,vers=4.2
    41 40 8:2 / /home/local rw,relatime - ext4 /dev/sdb1 rw
    42 27 0:42 / /mnt/pound\\040share rw,relatime - cifs //fs01/pound rw,vers=3.0
    43 27 0:43 / /mnt/laptop rw - fuse.sshfs clerk@laptop:/srv rw
    44 27 0:44 / /srv rw - ext4 /dev/sdc1 rw
    45 27 0:45 / /srv rw - nfs 10.0.0.5:/srv rw
    46 27 0:46 / /media/usb rw - vfat /dev/sdd1 rw
    this line is not a mount at all
    """
)


@pytest.mark.parametrize(
    ("path", "network", "fs_type"),
    [
        ("/var/lib/fieldops/fieldops.db", False, "ext4"),
        ("/home/ana/.local/share/FieldOps/fieldops.db", True, "nfs4"),
        ("/home/local/fieldops.db", False, "ext4"),  # a local disk mounted inside the share
        ("/home/localother/f.db", True, "nfs4"),  # a prefix of a name is not the folder
        ("/mnt/pound share/fieldops.db", True, "cifs"),  # "\040" in the table is a space
        ("/mnt/laptop/f.db", True, "fuse.sshfs"),
        ("/srv/f.db", True, "nfs"),  # mounted later over the local disk: it is what is seen
        ("/media/usb/f.db", False, "vfat"),
    ],
)
def test_linux_finds_the_mount_holding_the_path(path, network, fs_type):
    where = linux_placement(path, MOUNTINFO)
    assert where is not None
    assert (where.network, where.fs_type) == (network, fs_type)


def test_mountinfo_lines_are_read_with_their_escapes_and_bad_lines_skipped():
    mounts = parse_mountinfo(MOUNTINFO)
    assert ("/mnt/pound share", "cifs", "//fs01/pound") in mounts
    assert len(mounts) == 9


def test_macos_decides_by_the_local_flag():
    assert darwin_placement("smbfs", 0x0000_0010, "/Volumes/pound").network
    assert not darwin_placement("apfs", MNT_LOCAL | 0x0000_0080, "/").network


@pytest.mark.parametrize(
    ("path", "network"),
    [
        (r"\\fs01\pound\fieldops.db", True),
        ("//fs01/pound/fieldops.db", True),
        (r"\\?\UNC\fs01\pound\fieldops.db", True),
        (r"Z:\FieldOps\fieldops.db", True),  # a mapped network drive
        (r"\\?\Z:\FieldOps\fieldops.db", True),
        (r"C:\Users\ana\AppData\Local\FieldOps\fieldops.db", False),
    ],
)
def test_windows_refuses_unc_paths_and_network_drives(path, network):
    def drive_type(root: str) -> int:
        return DRIVE_REMOTE if root.upper() == "Z:\\" else 3  # DRIVE_FIXED

    assert windows_placement(path, drive_type).network is network


@pytest.fixture
def on_nfs(monkeypatch, tmp_path):
    """This test's folder as if it were an NFS mount."""
    table = MOUNTINFO + f"90 27 0:90 / {tmp_path} rw - nfs4 files.city.local:/pound rw\n"
    monkeypatch.setattr(placement, "read_mountinfo", lambda: table)
    return tmp_path


def test_opening_a_new_database_on_a_share_is_refused_and_creates_nothing(on_nfs):
    with pytest.raises(NetworkShareError) as refused:
        setup.open_database(str(on_nfs / "FieldOps" / "fieldops.db"))
    message = str(refused.value)
    assert "network share" in message and "nfs4" in message
    assert "migrate-to" in message and "FIELDOPS_DATABASE_URL" in message
    assert list(on_nfs.iterdir()) == []


def test_a_read_only_command_refuses_an_existing_database_on_a_share(on_nfs, sqlite_template):
    import shutil

    path = on_nfs / "fieldops.db"
    shutil.copyfile(sqlite_template, path)
    before = tree(on_nfs)
    with pytest.raises(NetworkShareError):
        setup.open_existing_database(str(path))
    assert tree(on_nfs) == before  # no -wal or -shm made, nothing changed


def test_a_local_folder_is_not_refused(tmp_path):
    opened = setup.open_database(str(tmp_path / "fieldops.db"))
    opened.db.dispose()
    assert opened.created


def test_the_command_line_says_why_in_one_line_and_creates_nothing(tmp_path):
    target = tmp_path / "share" / "fieldops.db"
    target.parent.mkdir()
    table = MOUNTINFO + f"90 27 0:90 / {target.parent} rw - cifs //fs01/pound rw\n"
    script = (
        "import sys\n"
        "import fieldops.db.placement as p\n"
        f"p.read_mountinfo = lambda: {table!r}\n"
        "from fieldops.cli import main\n"
        f"sys.exit(main(['--db', {str(target)!r}, 'due']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    line = one_line_error(result)
    assert "network share" in line and "cifs" in line and "migrate-to" in line
    assert result.returncode == EXIT_CODES["network_share"]  # its own status (README)
    assert list(target.parent.iterdir()) == []
