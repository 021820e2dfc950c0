"""Documents written to disk: the whole file or the old one, never half of one."""

from __future__ import annotations

import pytest

from fieldops import files


def test_a_written_file_holds_every_byte_and_no_temporary_file_is_left(tmp_path):
    out = tmp_path / "register.pdf"
    assert files.write_whole_file(out, b"%PDF-1.4 whole") == out
    assert out.read_bytes() == b"%PDF-1.4 whole"
    assert [p.name for p in tmp_path.iterdir()] == ["register.pdf"]


def test_an_interrupted_write_leaves_neither_a_half_file_nor_a_temporary_one(monkeypatch, tmp_path):
    out = tmp_path / "register.pdf"
    out.write_bytes(b"last month's register")

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", disk_full)
    with pytest.raises(OSError):
        files.write_whole_file(out, b"%PDF-1.4 new register")
    assert out.read_bytes() == b"last month's register"
    assert [p.name for p in tmp_path.iterdir()] == ["register.pdf"]


def test_a_missing_folder_raises_and_creates_nothing(tmp_path):
    with pytest.raises(FileNotFoundError):
        files.write_whole_file(tmp_path / "no such folder" / "r.pdf", b"x")
    assert list(tmp_path.iterdir()) == []


def test_the_part_file_of_a_long_name_stays_within_what_a_file_system_keeps(tmp_path):
    from fieldops.files import NAME_MAX, part_path

    for name in ("r.pdf", "r" * 251 + ".pdf", "é" * 127 + ".pdf"):
        part = part_path(tmp_path / name)
        assert part.parent == tmp_path and part.name.startswith(".") and part.suffix == ".part"
        assert len(part.name.encode()) <= NAME_MAX
    assert part_path(tmp_path / "a.pdf") != part_path(tmp_path / "a.pdf")  # unique
