"""Function lookup order, file caching, handles, globals, Session API."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from matfuse.errors import MatlabError
from vmutil import run, session


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def test_path_lookup_and_mtime_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "helper_fn.m", "function y = helper_fn(x)\n y = x + 1;\nend\n")
    s, out, _ = session()
    s.eval("v = helper_fn(1);")
    assert s.get("v") == 2.0
    time.sleep(0.01)
    _write(tmp_path / "helper_fn.m", "function y = helper_fn(x)\n y = x + 10;\nend\n")
    os.utime(tmp_path / "helper_fn.m", (time.time() + 5, time.time() + 5))
    s.eval("clear functions; v = helper_fn(1);")
    assert s.get("v") == 11.0


def test_addpath_rmpath(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _write(lib / "from_lib.m", "function r = from_lib()\n r = 42;\nend\n")
    s, _, _ = session()
    with pytest.raises(MatlabError):
        s.eval("a = from_lib();")
    s.eval(f"addpath('{lib}'); a = from_lib();")
    assert s.get("a") == 42.0
    s.eval(f"rmpath('{lib}');")
    with pytest.raises(MatlabError):
        s.eval("b = from_lib();")


def test_user_file_shadows_builtin(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "max.m", "function r = max(varargin)\n r = -1;\nend\n")
    s, _, _ = session()
    s.eval("m = max([1 2 3]);")
    assert s.get("m") == -1.0
    s.eval("b = builtin('max', [1 2 3]);")
    assert s.get("b") == 3.0


def test_script_called_by_name_shares_workspace(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "setq.m", "q = q * 2;\n")
    s, _, _ = session()
    s.eval("q = 4; setq; run('setq.m');")
    assert s.get("q") == 16.0


def test_function_file_local_functions_and_handles(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "mk.m", "function h = mk()\n h = @inner;\nend\nfunction r = inner(x)\n"
           " r = x * 3;\nend\n")
    s, _, _ = session()
    s.eval("h = mk(); r = h(2);")
    assert s.get("r") == 6.0


def test_globals_shared_between_functions() -> None:
    s, _, _ = session()
    s.eval("global G\nG = 1;\nbump(); bump();\nfunction bump()\n global G\n G = G + 1;\nend\n")
    assert s.get("G") == 3.0


def test_persistent_counter() -> None:
    out = run("for k = 1:3, fprintf('%d', tick()); end\nfunction n = tick()\n persistent c\n"
              " if isempty(c), c = 0; end\n c = c + 1; n = c;\nend\n")
    assert out == "123"


def test_session_get_set_call() -> None:
    s, out, _ = session()
    s.set("a", np.array([[1.0, 2.0], [3.0, 4.0]]))
    s.set("n", 3)
    s.set("name", "abc")
    s.eval("b = a * n; t = [name 'd'];")
    np.testing.assert_array_equal(s.get("b"), [[3, 6], [9, 12]])
    assert s.get("t") == "abcd"
    assert s.call("max", [3.0, 7.0]) == 7.0
    m, i = s.call("max", [3.0, 9.0, 1.0], nargout=2)
    assert (m, i) == (9.0, 2.0)
    with pytest.raises(MatlabError):
        s.get("nothing_here")


def test_varargin_varargout_nargin() -> None:
    out = run("[a, b] = f(1, 2, 3); fprintf('%d %d', a, b)\n"
              "function varargout = f(varargin)\n"
              " varargout{1} = nargin; varargout{2} = numel(varargin);\nend\n")
    assert out == "3 3"


def test_unassigned_output_error() -> None:
    s, _, _ = session()
    s.eval("disp(0)\nfunction y = f()\nend\n")
    with pytest.raises(MatlabError) as info:
        s.eval("v = f();")
    assert info.value.identifier == "MATLAB:unassignedOutputs"
    s.eval("f();")  # nargout=0: fine


def test_liveness_on_compiled_statements() -> None:
    from matfuse.lang.parser import parse
    from matfuse.vm.program import compile_program

    scope = compile_program(parse("a = 1;\nb = a + 2;\nc = b * a;\ndisp(c)\n"))
    infos = scope.script.infos
    assert infos[1].last_use == frozenset()          # a is read again later
    assert "a" in infos[2].last_use and "b" in infos[2].last_use
    assert "c" in infos[3].last_use
    loop = compile_program(parse("x = 0;\nfor i = 1:3\n y = x;\n x = i;\nend\n"))
    body = loop.script.infos[1]
    assert body.writes >= {"i", "x", "y"}


def test_nested_blocks_are_reachable_for_fusion() -> None:
    from matfuse.lang.parser import parse
    from matfuse.vm.program import compile_program

    scope = compile_program(parse("s = 0;\nfor i = 1:3\n t = s * 2;\n s = t + i;\nend\ndisp(s)\n"))
    loop = scope.script.infos[1]
    assert len(loop.children) == 1
    body = loop.children[0].infos
    assert body[0].last_use == frozenset()   # s and t stay live around the loop
    assert scope.script.infos[2].last_use == frozenset({"s", "disp"})


def test_edited_file_is_seen_by_next_command(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "edited.m", "function y = edited()\n y = 1;\nend\n")
    s, _, _ = session()
    s.eval("a = edited();")
    _write(tmp_path / "edited.m", "function y = edited()\n y = 2;\nend\n")
    future = time.time() + 10
    os.utime(tmp_path / "edited.m", (future, future))
    s.eval("b = edited();")
    assert (s.get("a"), s.get("b")) == (1.0, 2.0)


def test_session_run_file_of_a_missing_file(tmp_path: Path) -> None:
    s, _, _ = session()
    missing = str(tmp_path / "nowhere.m")
    with pytest.raises(MatlabError) as err:
        s.run_file(missing)
    assert err.value.identifier == "MATLAB:run:FileNotFound"
    assert err.value.message == f"{missing} not found."
    with pytest.raises(MatlabError) as err:
        s.run_file(str(tmp_path))            # a folder is not a script file
    assert err.value.identifier == "MATLAB:run:FileNotFound"
