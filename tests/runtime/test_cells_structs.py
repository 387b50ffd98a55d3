"""Cell/struct builtins and cellfun/arrayfun/structfun."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray, FunctionHandle, StructArray
from matfuse.vm.session import Session
from text_support import FakeContext, call, cellrow, handle, s, text

A = np.array


def test_cell_construction():
    c = call("cell", 2.0, 3.0)
    assert c.shape == (2, 3) and all(v.shape == (0, 0) for v in c.data.reshape(-1))
    assert call("cell", 2.0).shape == (2, 2)
    assert call("cell", A([[1.0, 4.0]])).shape == (1, 4)


def test_num2cell_and_cell2mat():
    c = call("num2cell", A([[1.0, 2.0]]))
    assert c.shape == (1, 2) and c.data[0, 1] == 2.0
    m = call("cell2mat", CellArray.from_list([A([[1.0, 2]]), A([[4.0, 5]]), 3.0, 6.0], (2, 2)))
    assert m.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert text(call("cell2mat", cellrow("ab", "cd"))) == "abcd"
    with pytest.raises(MatlabError) as info:
        call("cell2mat", 5.0)
    assert info.value.identifier == "MATLAB:cell2mat:InvalidInputType"


def test_struct_construction():
    st = call("struct", s("a"), 1.0, s("b"), CellArray.from_list([2.0, 3.0]))
    assert st.shape == (1, 2) and st.data[0, 1]["b"] == 3.0 and st.data[0, 1]["a"] == 1.0
    wrapped = call("struct", s("a"), CellArray.from_list([CellArray.from_list([1.0, 2.0])]))
    assert wrapped.shape == (1, 1) and isinstance(wrapped.data[0, 0]["a"], CellArray)
    assert call("struct").fields == []
    assert call("struct", s("a"), CellArray.empty((0, 0))).shape == (0, 0)
    with pytest.raises(MatlabError) as info:
        call("struct", s("a"))
    assert info.value.identifier == "MATLAB:struct:fieldValuePairs"
    with pytest.raises(MatlabError):
        call("struct", s("1a"), 1.0)


def test_field_functions():
    st = call("struct", s("b"), 2.0, s("a"), s("x"))
    names = call("fieldnames", st)
    assert names.shape == (2, 1) and text(names.data[0, 0]) == "b"
    assert call("isfield", st, s("a")) is True
    assert call("isfield", st, cellrow("a", "z")).tolist() == [[True, False]]
    assert call("isfield", 5.0, s("a")) is False
    assert call("rmfield", st, s("b")).fields == ["a"]
    assert call("setfield", st, s("c"), 5.0).data[0, 0]["c"] == 5.0
    assert st.fields == ["b", "a"]  # inputs are never modified
    assert text(call("getfield", st, s("a"))) == "x"
    ordered, perm = call("orderfields", st, nargout=2)
    assert ordered.fields == ["a", "b"] and perm.tolist() == [[2.0], [1.0]]
    with pytest.raises(MatlabError) as info:
        call("getfield", st, s("zz"))
    assert info.value.identifier == "MATLAB:nonExistentField"
    with pytest.raises(MatlabError) as info:
        call("rmfield", st, s("zz"))
    assert info.value.identifier == "MATLAB:rmfield:InvalidFieldname"


def test_struct_cell_conversions():
    st = call("cell2struct", CellArray.from_list([1.0, s("x")], (2, 1)), cellrow("a", "b"), 1.0)
    assert st.fields == ["a", "b"] and st.data[0, 0]["a"] == 1.0
    back = call("struct2cell", st)
    assert back.shape == (2, 1) and back.data[0, 0] == 1.0


def test_deal():
    assert call("deal", 1.0, s("a"), nargout=2)[0] == 1.0
    assert call("deal", 7.0, nargout=3) == [7.0, 7.0, 7.0]
    with pytest.raises(MatlabError) as info:
        call("deal", 1.0, 2.0, nargout=3)
    assert info.value.identifier == "MATLAB:deal:narginNargoutMismatch"


def test_cellfun_legacy_names():
    out = call("cellfun", s("isempty"), CellArray.from_list([np.zeros((0, 0)), 1.0]))
    assert out.tolist() == [[True, False]]
    assert call("cellfun", s("length"), cellrow("abc", np.ones((2, 5)))).tolist() == [[3.0, 5.0]]
    assert call("cellfun", s("isclass"), cellrow("a", 1.0), s("char")).tolist() == [[True, False]]


def test_cellfun_handles():
    ctx = FakeContext()
    sizes = call("cellfun", handle(lambda x: float(x.size)), cellrow("abc", "de"), ctx=ctx)
    assert sizes.tolist() == [[3.0, 2.0]]
    upper = call("cellfun", FunctionHandle(name="upper"), cellrow("ab", "c"),
                 s("UniformOutput"), False, ctx=ctx)
    assert isinstance(upper, CellArray) and text(upper.data[0, 0]) == "AB"
    by_name = call("cellfun", s("upper"), cellrow("ab"), s("UniformOutput"), False, ctx=ctx)
    assert text(by_name.data[0, 0]) == "AB"
    a, b = call("cellfun", handle(lambda x: (float(x.size), float(x.shape[0]))),
                cellrow("abc", "de"), ctx=ctx, nargout=2)
    assert a.tolist() == [[3.0, 2.0]] and b.tolist() == [[1.0, 1.0]]
    logical = call("cellfun", handle(lambda x: x.size > 2), cellrow("abc", "de"), ctx=ctx)
    assert logical.dtype == np.bool_


def test_cellfun_errors():
    ctx = FakeContext()
    with pytest.raises(MatlabError) as info:
        call("cellfun", handle(lambda x: x), cellrow("abc"), ctx=ctx)
    assert info.value.identifier == "MATLAB:cellfun:NotAScalarOutput"
    with pytest.raises(MatlabError) as info:
        call("cellfun", handle(lambda x: x), 5.0, ctx=ctx)
    assert info.value.identifier == "MATLAB:cellfun:NotACell"

    def fail(x):
        raise MatlabError("my:id", "oops")

    recovered = call("cellfun", handle(fail), cellrow("a", "b"),
                     s("ErrorHandler"), handle(lambda err, x: err.data[0, 0]["index"] * -1), ctx=ctx)
    assert recovered.tolist() == [[-1.0, -2.0]]


def test_cellfun_empty():
    ctx = FakeContext()
    out = call("cellfun", handle(lambda x: 1.0), CellArray.empty((0, 0)), ctx=ctx)
    assert out.shape == (0, 0)
    cell_out = call("cellfun", handle(lambda x: 1.0), CellArray.empty((1, 0)),
                    s("UniformOutput"), False, ctx=ctx)
    assert isinstance(cell_out, CellArray) and cell_out.shape == (1, 0)


def test_arrayfun():
    ctx = FakeContext()
    assert call("arrayfun", handle(lambda x: x * 2), A([[1.0, 2, 3]]), ctx=ctx).tolist() == [[2.0, 4.0, 6.0]]
    ragged = call("arrayfun", handle(lambda x: np.ones((1, int(x)))), A([[1.0, 2]]),
                  s("UniformOutput"), False, ctx=ctx)
    assert ragged.data[0, 1].shape == (1, 2)
    assert call("arrayfun", handle(lambda x, y: x + y), A([[1.0, 2]]), A([[10.0, 20]]),
                ctx=ctx).tolist() == [[11.0, 22.0]]
    st = call("struct", s("a"), CellArray.from_list([1.0, 5.0]))
    assert call("arrayfun", handle(lambda e: e.data[0, 0]["a"]), st, ctx=ctx).tolist() == [[1.0, 5.0]]
    with pytest.raises(MatlabError) as info:
        call("arrayfun", handle(lambda x, y: x), A([[1.0, 2]]), A([[1.0]]), ctx=ctx)
    assert info.value.identifier == "MATLAB:arrayfun:AllInputsSameSize"


def test_structfun():
    ctx = FakeContext()
    st = call("struct", s("b"), 2.0, s("a"), s("xy"))
    sizes = call("structfun", handle(lambda v: float(np.size(v))), st, ctx=ctx)
    assert sizes.tolist() == [[1.0], [2.0]]
    same = call("structfun", handle(lambda v: v), st, s("UniformOutput"), False, ctx=ctx)
    assert isinstance(same, StructArray) and same.fields == ["b", "a"]
    with pytest.raises(MatlabError) as info:
        call("structfun", handle(lambda v: v), 5.0, ctx=ctx)
    assert info.value.identifier == "MATLAB:structfun:NotAScalarStructure"


def test_struct_of_empty_is_empty_struct_array() -> None:
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    session.eval("s = struct([]); disp(size(s)); disp(isstruct(s)); disp(numel(fieldnames(s)))")
    assert out.getvalue() == "     0     0\n   1\n     0\n"


def test_empty_struct_concatenates_like_empty() -> None:
    out = io.StringIO()
    session = Session(stdout=out, stderr=io.StringIO())
    session.eval("acc = struct([]); for n = 1:3, acc = [acc struct('v', n)]; end; disp([acc.v])")
    assert out.getvalue() == "     1     2     3\n"
