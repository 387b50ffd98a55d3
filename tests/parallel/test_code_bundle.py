"""The code bundle a parfor job carries: folders re-read only when their
files change."""

from __future__ import annotations

import os

from matfuse.parallel.code_bundle import make_bundle


def test_unchanged_folder_gives_the_same_bundle(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f.m").write_text("function y = f(x)\ny = x + 1;\nend\n")
    first = make_bundle(str(tmp_path / "main.m"), [])
    second = make_bundle(str(tmp_path / "main.m"), [])
    assert first.key == second.key
    assert dict(first.folders[0][1])["f.m"].startswith("function y = f")


def test_edited_file_is_read_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "f.m"
    path.write_text("function y = f(x)\ny = x + 1;\nend\n")
    first = make_bundle(None, [])
    path.write_text("function y = f(x)\ny = x + 2;\nend\n")     # same size
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    second = make_bundle(None, [])
    assert first.key != second.key
    assert "x + 2" in dict(second.folders[0][1])["f.m"]
