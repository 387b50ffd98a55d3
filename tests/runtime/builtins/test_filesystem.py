"""tempdir tempname fullfile fileparts isfile isfolder delete mkdir rmdir."""

from __future__ import annotations

import os

import pytest

from builtins_b_support import call, raises, text
from matfuse.runtime import _matrixops
from matfuse.runtime.values import to_str


def test_names() -> None:
    assert to_str(call("tempdir")).endswith("/")
    a, b = to_str(call("tempname")), to_str(call("tempname"))
    assert a != b and not os.path.exists(a)
    assert to_str(call("fullfile", text("a"), text("b"), text("c.m"))) == "a/b/c.m"
    assert to_str(call("fullfile", text("a/"), text("/b"))) == "a/b"
    d, n, e = call("fileparts", text("/home/user/data.csv"), nargout=3)
    assert (to_str(d), to_str(n), to_str(e)) == ("/home/user", "data", ".csv")
    d, n, e = call("fileparts", text("file"), nargout=3)
    assert (d.size, to_str(n), e.size) == (0, "file", 0)


def test_create_and_delete(tmp_path, monkeypatch) -> None:
    seen = []
    monkeypatch.setattr(_matrixops, "WARNING_HOOK", lambda ident, msg: seen.append(ident))
    folder = str(tmp_path / "sub")
    assert call("mkdir", text(folder)) is True
    assert call("isfolder", text(folder)) is True
    status, msg = call("mkdir", text(folder), nargout=2)
    assert status is True and to_str(msg) == "Directory already exists."
    path = os.path.join(folder, "f.txt")
    open(path, "w").close()
    assert call("isfile", text(path)) is True
    call("delete", text(os.path.join(folder, "*.txt")), nargout=0)
    assert not os.path.exists(path)
    call("delete", text(path), nargout=0)
    assert seen == ["MATLAB:DELETE:FileNotFound"]
    call("rmdir", text(folder), nargout=0)
    assert not os.path.exists(folder)
    raises("MATLAB:RMDIR:NoDirectoriesRemoved", "rmdir", text(folder), nargout=0)
