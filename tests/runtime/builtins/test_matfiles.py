"""save / load: MAT-file round trips, variable selection, -struct, -append, ASCII."""

from __future__ import annotations

import numpy as np
import pytest

from builtins_b_support import FakeContext, call, close, raises, text
from matfuse.runtime.values import CellArray, StructArray, char_array, char_rows


def _workspace() -> FakeContext:
    ctx = FakeContext()
    ctx.vars = {
        "d": 3.5, "m": np.array([[1.0, 2], [3, 4]]), "f": np.array([[1.5]], dtype=np.float32),
        "i": np.array([[1, -2]], dtype=np.int16), "u": np.array([[7]], dtype=np.uint64),
        "t": True, "L": np.array([[True, False]]), "s": char_array("hello"),
        "cm": char_rows(["ab ", "cde"]), "e": np.zeros((0, 0)), "z": np.array([[1 + 2j, 3]]),
        "C": CellArray.from_list([1.0, char_array("x"), CellArray.from_list([2.0])]),
        "S": StructArray.scalar({"a": 1.0, "b": char_array("bee")}),
    }
    return ctx


def _same(a, b) -> None:
    assert type(a) is type(b)
    if isinstance(a, CellArray):
        assert a.shape == b.shape
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)):
            _same(x, y)
    elif isinstance(a, StructArray):
        assert a.fields == b.fields and a.shape == b.shape
        for x, y in zip(a.data.reshape(-1), b.data.reshape(-1)):
            for k in a.fields:
                _same(x[k], y[k])
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)
    else:
        assert a == b


def test_round_trip_all_classes(tmp_path) -> None:
    ctx = _workspace()
    path = str(tmp_path / "w")
    call("save", text(path), nargout=0, ctx=ctx)
    loaded = FakeContext()
    call("load", text(path), nargout=0, ctx=loaded)
    assert set(loaded.vars) == set(ctx.vars)
    for name, value in ctx.vars.items():
        _same(loaded.vars[name], value)


def test_select_variables_and_struct_output(tmp_path) -> None:
    ctx = _workspace()
    path = str(tmp_path / "sel.mat")
    call("save", text(path), text("d"), text("m"), nargout=0, ctx=ctx)
    s = call("load", text(path), ctx=ctx)
    assert isinstance(s, StructArray) and sorted(s.fields) == ["d", "m"]
    s = call("load", text(path), text("m"), ctx=ctx)
    assert s.fields == ["m"]
    raises("MATLAB:save:variableNotFound", "save", text(path), text("nosuch"), nargout=0, ctx=ctx)
    raises("MATLAB:load:couldNotReadFile", "load", text(str(tmp_path / "none.mat")), nargout=0, ctx=ctx)


def test_struct_option_and_append(tmp_path) -> None:
    ctx = _workspace()
    path = str(tmp_path / "st.mat")
    call("save", text(path), text("-struct"), text("S"), nargout=0, ctx=ctx)
    s = call("load", text(path), ctx=ctx)
    assert sorted(s.fields) == ["a", "b"]
    call("save", text(path), text("d"), text("-append"), nargout=0, ctx=ctx)
    assert sorted(call("load", text(path), ctx=ctx).fields) == ["a", "b", "d"]


def test_ascii(tmp_path) -> None:
    ctx = FakeContext()
    ctx.vars = {"x": np.array([[1.0, -2, 3], [4, 5, 6.5]])}
    path = tmp_path / "x.txt"
    call("save", text(str(path)), text("x"), text("-ascii"), nargout=0, ctx=ctx)
    assert path.read_text() == ("   1.0000000e+00  -2.0000000e+00   3.0000000e+00\n"
                                "   4.0000000e+00   5.0000000e+00   6.5000000e+00\n")
    close(call("load", text(str(path)), ctx=ctx), ctx.vars["x"])
    loaded = FakeContext()
    call("load", text(str(path)), nargout=0, ctx=loaded)
    close(loaded.vars["x"], ctx.vars["x"])
    bad = tmp_path / "bad.txt"
    bad.write_text("1 2\n3\n")
    raises("MATLAB:load:unableToReadAsciiFile", "load", text(str(bad)), ctx=ctx)
