"""Atomic writes keep the old file on failure; safe reads skip non-files."""

from __future__ import annotations

import os

import pytest

from matfuse.runtime.atomic_files import (
    load_json_safe, read_bytes_safe, read_text_safe, write_bytes_atomic, write_text_atomic)


def test_write_replaces_content_and_leaves_no_temp(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    write_text_atomic(target, "new")
    assert target.read_text() == "new"
    assert os.listdir(tmp_path) == ["a.txt"]


def test_write_replaces_symlink_instead_of_following_it(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "cache.txt"
    link.symlink_to(victim)
    write_text_atomic(link, "cache data")
    assert victim.read_text() == "precious"
    assert not link.is_symlink() and link.read_text() == "cache data"


def test_failed_write_keeps_old_file(tmp_path, monkeypatch):
    target = tmp_path / "a.bin"
    target.write_bytes(b"old")

    def failing_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError):
        write_bytes_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["a.bin"]


def test_write_onto_folder_raises_oserror_and_cleans_up(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(OSError):
        write_bytes_atomic(tmp_path / "d", b"x")
    assert sorted(os.listdir(tmp_path)) == ["d"]


def test_reads_skip_fifo_folder_and_bad_text(tmp_path):
    warnings: list[str] = []
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert read_bytes_safe(fifo, warnings.append) is None
    assert read_bytes_safe(tmp_path, warnings.append) is None
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00")
    assert read_text_safe(tmp_path / "bad.txt", warnings.append) is None
    assert read_bytes_safe(tmp_path / "missing", warnings.append) is None
    assert len(warnings) == 3


def test_json_nested_too_deeply_is_ignored(tmp_path):
    warnings: list[str] = []
    path = tmp_path / "deep.json"
    path.write_text("[" * 200000 + "]" * 200000)
    assert load_json_safe(path, warnings.append) is None
    (tmp_path / "ok.json").write_text('{"a": 1}')
    assert load_json_safe(tmp_path / "ok.json", warnings.append) == {"a": 1}
    assert len(warnings) == 1
