"""The on-disk WGSL cache: faulty entries are skipped or removed with a
warning (never a traceback or a hang); sources are written atomically."""

from __future__ import annotations

import os

from matfuse.accelerate.providers.wgpu.pipelines import PipelineCache, cache_dir


def test_warm_from_disk_skips_faulty_entries(wgpu_provider, tmp_path, monkeypatch, capsys):
    folder = cache_dir(tmp_path)
    folder.mkdir(parents=True)
    (folder / "a-not-utf8.wgsl").write_bytes(b"\xff\xfe// matfuse entry=main n_in=1 n_out=1\n")
    (folder / "b-folder.wgsl").mkdir()
    os.mkfifo(folder / "c-fifo.wgsl")
    (folder / "d-garbage.wgsl").write_text("// matfuse entry=main n_in=x\nnot wgsl")
    cache = PipelineCache(wgpu_provider.pipelines._device, "test", persist=False, cache_base=tmp_path)
    assert cache.warm_from_disk() == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "removing corrupt shader cache file" in err and "not a regular file" in err
    assert sorted(p.name for p in folder.iterdir()) == ["b-folder.wgsl", "c-fifo.wgsl"]


def test_cache_folder_that_is_a_file_is_ignored(wgpu_provider, tmp_path, monkeypatch):
    cache_dir(tmp_path).write_text("a file where the folder should be")
    cache = PipelineCache(wgpu_provider.pipelines._device, "test", persist=True, cache_base=tmp_path)
    assert cache.warm_from_disk() == 0
    cache._write_source("k" * 40, "// source\n", "main", _layout(), (64,))
    assert cache._persist is False


def test_sources_replace_a_dangling_symlink_atomically(wgpu_provider, tmp_path, monkeypatch):
    folder = cache_dir(tmp_path)
    folder.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere.txt"
    link = folder / ("k" * 32 + ".wgsl")
    link.symlink_to(elsewhere)
    cache = PipelineCache(wgpu_provider.pipelines._device, "test", persist=True, cache_base=tmp_path)
    cache._write_source("k" * 40, "// source\n", "main", _layout(), (64,))
    assert not elsewhere.exists()
    assert not link.is_symlink() and link.read_text().endswith("// source\n")
    assert sorted(p.name for p in folder.iterdir()) == [link.name]


def _layout():
    from matfuse.accelerate.providers.wgpu.pipelines import Layout

    return Layout(1, 1)
