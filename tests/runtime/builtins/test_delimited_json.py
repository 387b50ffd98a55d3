"""readmatrix/writematrix/readcell/writecell/csv*/dlm* and jsonencode/jsondecode."""

from __future__ import annotations

import io

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.values import CellArray, StructArray, to_str
from matfuse.vm.session import Session


def _session() -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    return Session(stdout=out, stderr=io.StringIO()), out


def _eval(code: str, **vars_: object):
    s, out = _session()
    for k, v in vars_.items():
        s.set(k, v)
    s.eval(code)
    return s, out.getvalue()


def test_readmatrix_header_delimiters_missing(tmp_path) -> None:
    f = tmp_path / "d.csv"
    f.write_text("x,y,z\n1,2,3\n4,,text\n7,8\n")
    s, _ = _eval(f"A = readmatrix('{f}');")
    a = s.interp.base["A"]
    assert a.shape == (3, 3) and np.array_equal(a, [[1, 2, 3], [4, np.nan, np.nan], [7, 8, np.nan]],
                                                equal_nan=True)
    t = tmp_path / "d.txt"
    t.write_text("% title\n1\t2\n3\t4\n")
    s, _ = _eval(f"A = readmatrix('{t}', 'NumHeaderLines', 1); B = readmatrix('{t}', 'Range', 'B2');")
    assert np.array_equal(s.interp.base["A"], [[1, 2], [3, 4]])
    assert s.interp.base["B"] == 4.0
    w = tmp_path / "w.dat"
    w.write_text("  1.5  -2e3\n  inf  NaN\n")
    s, _ = _eval(f"A = readmatrix('{w}', 'OutputType', 'single');")
    a = s.interp.base["A"]
    assert a.dtype == np.float32 and a[0, 1] == -2000 and np.isinf(a[1, 0]) and np.isnan(a[1, 1])


def test_writematrix_round_trip_and_append(tmp_path) -> None:
    f = tmp_path / "m.csv"
    _eval(f"M = [1 2.5; -3 1e-20]; writematrix(M, '{f}'); writematrix([7 8], '{f}', 'WriteMode', 'append');")
    assert f.read_text() == "1,2.5\n-3,1e-20\n7,8\n"
    s, _ = _eval(f"M = rand(4, 3); writematrix(M, '{f}', 'Delimiter', 'tab'); B = readmatrix('{f}');")
    assert np.allclose(s.interp.base["B"], s.interp.base["M"], rtol=1e-14, atol=0)
    _eval(f"writematrix([true false; false true], '{f}')")
    assert f.read_text() == "1,0\n0,1\n"
    _eval(f"writematrix(reshape(1:8, 2, 2, 2), '{f}')")
    assert f.read_text() == "1,3,5,7\n2,4,6,8\n"
    _eval(f"writematrix([\"a,b\" \"c\"], '{f}')")
    assert f.read_text() == '"a,b",c\n'


def test_readcell_writecell(tmp_path) -> None:
    f = tmp_path / "c.csv"
    s, _ = _eval(f"writecell({{1, 'two, three'; true, []}}, '{f}'); C = readcell('{f}');")
    assert f.read_text() == '1,"two, three"\n1,\n'
    c = s.interp.base["C"]
    assert isinstance(c, CellArray) and c.shape == (2, 2)
    assert c.data[0, 0] == 1.0 and to_str(c.data[0, 1]) == "two, three" and c.data[1, 1].size == 0
    with pytest.raises(MatlabError) as info:
        _eval(f"writecell({{[1 2]}}, '{f}')")
    assert info.value.identifier == "MATLAB:writecell:UnsupportedCellContents"


def test_csv_dlm(tmp_path) -> None:
    f = tmp_path / "c.csv"
    s, _ = _eval(f"csvwrite('{f}', [1.23456789 2; 3 4]); A = csvread('{f}'); B = csvread('{f}', 1, 0);")
    assert f.read_text() == "1.2346,2\n3,4\n"
    assert np.array_equal(s.interp.base["A"], [[1.2346, 2], [3, 4]])
    assert np.array_equal(s.interp.base["B"], [[3, 4]])
    s, _ = _eval(f"dlmwrite('{f}', [1 2; 3 4], 'delimiter', '\\t', 'precision', '%.2f'); "
                 f"dlmwrite('{f}', [5 6], '-append', 'delimiter', '\\t'); A = dlmread('{f}'); "
                 f"B = dlmread('{f}', '\\t', [1 0 1 1]);")
    assert f.read_text() == "1.00\t2.00\n3.00\t4.00\n5\t6\n"
    assert np.array_equal(s.interp.base["B"], [[3, 4]])
    f.write_text("1,,3\n4,5\n")
    s, _ = _eval(f"A = dlmread('{f}');")
    assert np.array_equal(s.interp.base["A"], [[1, 0, 3], [4, 5, 0]])
    f.write_text("1 2  3\n 4\t5 6\n")
    s, _ = _eval(f"A = dlmread('{f}');")
    assert np.array_equal(s.interp.base["A"], [[1, 2, 3], [4, 5, 6]])
    f.write_text("a,b\n1,2\n")
    with pytest.raises(MatlabError) as info:
        _eval(f"A = csvread('{f}');")
    assert info.value.identifier == "MATLAB:textscan:handleErrorAndShowInfo"
    s, _ = _eval(f"A = csvread('{f}', 1, 0);")
    assert np.array_equal(s.interp.base["A"], [[1, 2]])
    _eval(f"csvwrite('{f}', [1 2], 1, 1)")
    assert f.read_text() == ",,\n,1,2\n"


def test_errors(tmp_path) -> None:
    for code, ident in [("readmatrix('book.xlsx')", "MATLAB:readmatrix:SpreadsheetUnsupported"),
                        (f"readmatrix('{tmp_path}/none.csv')", "MATLAB:textio:textio:FileNotFound"),
                        (f"readmatrix('{tmp_path}/x.csv', 'Bogus', 1)", "MATLAB:InputParser:UnmatchedParameter"),
                        (f"writematrix({{1}}, '{tmp_path}/x.csv')", "MATLAB:writematrix:UnsupportedInputType")]:
        (tmp_path / "x.csv").write_text("1\n")
        with pytest.raises(MatlabError) as info:
            _eval(code)
        assert info.value.identifier == ident, code


def test_write_failure_keeps_old_file(tmp_path, monkeypatch) -> None:
    import errno
    import os

    f = tmp_path / "keep.csv"
    f.write_text("old\n")

    def full(*_a):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(MatlabError):
        _eval(f"writematrix([1 2], '{f}')")
    monkeypatch.undo()
    assert f.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["keep.csv"]


# ------------------------------------------------------------------- JSON
@pytest.mark.parametrize("code, expected", [
    ("jsonencode(struct('a', [1 2 3], 'b', 'hi', 'c', true, 'd', [], 'e', NaN))",
     '{"a":[1,2,3],"b":"hi","c":true,"d":[],"e":null}'),
    ("jsonencode(magic(3))", "[[8,1,6],[3,5,7],[4,9,2]]"),
    ("jsonencode([1;2])", "[1,2]"),
    ("jsonencode({1, 'two', [3 4]})", '[1,"two",[3,4]]'),
    ("jsonencode({})", "[]"),
    ("jsonencode(struct('x', {1, 2}))", '[{"x":1},{"x":2}]'),
    ("jsonencode(pi)", "3.141592653589793"),
    ("jsonencode([1e20 1e21 1e-7 0.000123 -2.5e-300])",
     "[100000000000000000000.0,1e21,1e-7,0.000123,-2.5e-300]"),
    ("jsonencode(reshape(1:8, 2, 2, 2))", "[[[1,5],[3,7]],[[2,6],[4,8]]]"),
    ("jsonencode(['ab'; 'cd'])", '["ab","cd"]'),
    ("jsonencode(single(0.1))", "0.1"),
    ("jsonencode(int8([1 -2]))", "[1,-2]"),
    ("jsonencode([\"a\" \"b\"])", '["a","b"]'),
    ("jsonencode('say \"hi\"')", '"say \\"hi\\""'),
    ("jsonencode([1 NaN -Inf], 'ConvertInfAndNaN', false)", "[1,NaN,-Infinity]"),
    ("jsonencode(struct('a', 1, 'b', [1 2]), 'PrettyPrint', true)",
     '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}'),
])
def test_jsonencode(code: str, expected: str) -> None:
    s, _ = _eval(f"t = {code};")
    assert to_str(s.interp.base["t"]) == expected


def test_jsondecode_rules() -> None:
    s, _ = _eval("v = jsondecode('{\"a\": [1, 2, null], \"b\": [[1,2],[3,4]], \"c\": [{\"x\":1},{\"x\":2}],"
                 " \"d\": [{\"x\":1},{\"y\":2}], \"e\": [\"p\",\"q\"], \"1f\": null, \"g h\": true,"
                 " \"i\": [true,false], \"j\": [1, \"m\"], \"k\": [[1,2],[3]], \"l\": []}');")
    v = s.interp.base["v"].data[0, 0]
    assert s.interp.base["v"].fields == ["a", "b", "c", "d", "e", "x1f", "gH", "i", "j", "k", "l"]
    assert v["a"].shape == (3, 1) and np.isnan(v["a"][2, 0])
    assert np.array_equal(v["b"], [[1, 2], [3, 4]])
    assert isinstance(v["c"], StructArray) and v["c"].shape == (2, 1)
    assert isinstance(v["d"], CellArray) and v["d"].shape == (2, 1)
    assert isinstance(v["e"], CellArray) and to_str(v["e"].data[1, 0]) == "q"
    assert v["x1f"].shape == (0, 0) and v["gH"] is True
    assert v["i"].dtype == np.bool_ and v["i"].shape == (2, 1)
    assert isinstance(v["j"], CellArray) and isinstance(v["k"], CellArray)
    assert v["l"].shape == (0, 0)


def test_json_round_trip_and_errors() -> None:
    s, _ = _eval("s.name = 'x'; s.vals = [1.5 2.5]; s.nested.ok = false; "
                 "t = jsondecode(jsonencode(s)); same = isequal(t.vals, [1.5; 2.5]) && strcmp(t.name, 'x');")
    assert s.interp.base["same"] is True
    for code, ident in [("jsondecode('{bad')", "MATLAB:json:ExpectedValue"),
                        ("jsonencode(@sin)", "MATLAB:json:UnsupportedClass"),
                        ("jsonencode(1, 'Bogus', 1)", "MATLAB:json:UnknownOption")]:
        with pytest.raises(MatlabError) as info:
            _eval(code)
        assert info.value.identifier == ident
