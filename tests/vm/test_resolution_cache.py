"""Call sites keep their resolutions across top-level commands only while
nothing the lookup depends on changed (``Interpreter.begin_command``)."""

from __future__ import annotations

import io
import os

import pytest

from matfuse.vm.session import Session


def _touch_later(path: os.PathLike, text: str) -> None:
    """Write ``text`` and move the mtimes of the file and its folder forward
    (file systems with coarse timestamps would otherwise hide the change)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    stamp = os.path.getmtime(path) + 5
    os.utime(path, (stamp, stamp))
    os.utime(os.path.dirname(path), (stamp, stamp))


@pytest.fixture()
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_unchanged_commands_keep_the_generation(in_tmp):
    s = Session(stdout=io.StringIO())
    s.eval("y = sin(1);")
    generation = s.interp.generation
    s.eval("y = sin(1);")
    assert s.interp.generation == generation


def test_new_mfile_shadows_a_builtin_at_the_next_command(in_tmp):
    s = Session(stdout=io.StringIO())
    code = "y = sin(1);"
    s.eval(code)
    assert s.get("y") == pytest.approx(0.8414709848078965)
    _touch_later(in_tmp / "sin.m", "function r = sin(x)\nr = 42;\nend\n")
    s.eval(code)
    assert s.get("y") == 42.0


def test_edited_function_file_is_reloaded(in_tmp):
    s = Session(stdout=io.StringIO())
    _touch_later(in_tmp / "f.m", "function r = f(x)\nr = x + 1;\nend\n")
    s.eval("y = f(1);")
    assert s.get("y") == 2.0
    path = in_tmp / "f.m"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("function r = f(x)\nr = x + 100;\nend\n")
    stamp = os.path.getmtime(path) + 10
    os.utime(path, (stamp, stamp))
    s.eval("y = f(1);")
    assert s.get("y") == 101.0


def test_changing_folder_resolves_again(in_tmp, monkeypatch):
    other = in_tmp / "other"
    other.mkdir()
    _touch_later(other / "g.m", "function r = g()\nr = 7;\nend\n")
    _touch_later(in_tmp / "g.m", "function r = g()\nr = 3;\nend\n")
    s = Session(stdout=io.StringIO())
    s.eval("y = g();")
    assert s.get("y") == 3.0
    monkeypatch.chdir(other)
    s.eval("y = g();")
    assert s.get("y") == 7.0


def test_addpath_and_removed_file(in_tmp):
    lib = in_tmp / "lib"
    lib.mkdir()
    _touch_later(lib / "h.m", "function r = h()\nr = 5;\nend\n")
    s = Session(stdout=io.StringIO())
    s.eval(f"addpath('{lib}');")
    s.eval("y = h();")
    assert s.get("y") == 5.0
    os.remove(lib / "h.m")
    stamp = os.path.getmtime(lib) + 20
    os.utime(lib, (stamp, stamp))
    with pytest.raises(Exception) as info:
        s.eval("y = h();")
    assert "h" in str(info.value)
