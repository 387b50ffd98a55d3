"""The Python API converts both ways and never shares memory with the workspace."""

from __future__ import annotations

import io

import numpy as np
import pytest

import matfuse
from matfuse.runtime.values import CellArray, StringArray, StructArray, class_of
from matfuse.vm.session import Session


def _session() -> Session:
    return Session(stdout=io.StringIO(), stderr=io.StringIO())


def test_get_returns_a_copy() -> None:
    s = _session()
    s.eval("A = [1 2 3]; B = A; C = {A}; S.f = A;")
    a = s.get("A")
    a[0, 0] = 99
    s.eval("ok = isequal(A, [1 2 3]) && isequal(B, [1 2 3]);")
    assert s.get("ok") is True
    s.get("C")[0][0, 0] = 99
    s.get("S")["f"][0, 0] = 99
    s.eval("ok = isequal(C{1}, [1 2 3]) && isequal(S.f, [1 2 3]);")
    assert s.get("ok") is True


def test_set_copies_the_callers_array() -> None:
    s = _session()
    x = np.arange(3.0)
    s.set("x", x)
    x[0] = 42
    s.eval("v = x(1);")
    assert s.get("v") == 0.0


def test_matlab_to_python() -> None:
    s = _session()
    s.eval("d = 2; L = true; i = int16([1 -2]); z = [1+2i 3]; c = 'hello'; cm = ['ab'; 'cd'];"
           "st = \"one\"; sa = [\"a\" \"b\"; \"c\" \"d\"]; cv = {1, 'x', {2}}; c2 = {1 2; 3 4};"
           "s.a = 1; s.b = 'q'; sa2 = struct('k', {1, 2}); nd = reshape(1:24, 2, 3, 4);"
           "e = ''; lg = [true false];")
    s.interp.base["m"] = StringArray(np.array([[None]], dtype=object))
    assert s.get("d") == 2.0 and s.get("L") is True
    i = s.get("i")
    assert i.dtype == np.int16 and i.tolist() == [[1, -2]]
    assert s.get("z").dtype == np.complex128
    assert s.get("c") == "hello" and s.get("e") == ""
    cm = s.get("cm")
    assert cm.dtype == np.dtype("<U1") and cm.shape == (2, 2) and "".join(cm[1]) == "cd"
    assert s.get("st") == "one"
    sa = s.get("sa")
    assert sa.shape == (2, 2) and sa[1, 0] == "c"
    cv = s.get("cv")
    assert cv[0] == 1.0 and cv[1] == "x" and cv[2] == [2.0]
    c2 = s.get("c2")
    assert isinstance(c2, np.ndarray) and c2.dtype == object and c2[1, 0] == 3.0
    assert s.get("s") == {"a": 1.0, "b": "q"}
    assert s.get("sa2") == [{"k": 1.0}, {"k": 2.0}]
    nd = s.get("nd")
    assert nd.shape == (2, 3, 4) and nd[1, 2, 3] == 24.0 and nd[1, 0, 0] == 2.0
    assert s.get("m") is None
    assert s.get("lg").dtype == np.bool_


def test_python_to_matlab() -> None:
    s = _session()
    s.set("cfg", {"n": 3, "name": "run", "opts": {"fast": True}})
    s.set("mixed", [1, "two"])
    s.set("nums", [1, 2, 3])
    s.set("mat", [[1, 2], [3, 4]])
    s.set("flags", [True, False])
    s.set("people", [{"name": "a"}, {"name": "b"}])
    s.set("ragged", [{"a": 1}, {"b": 2}])
    s.set("i8", np.array([1, 2], dtype=np.int8))
    s.set("u", np.uint32(7))
    s.set("cm", np.array([["a", "b"], ["c", "d"]]))
    s.set("strs", np.array(["ab", "cde"]))
    s.set("cells", np.array([[1.0, "x"], [None or 2.0, [1, 2]]], dtype=object))
    s.set("z", 1 + 2j)
    s.eval("k = {class(cfg), class(cfg.opts.fast), class(mixed), class(nums), class(mat),"
           " class(flags), class(people), class(ragged), class(i8), class(u), class(cm),"
           " class(strs), class(cells), class(z)};"
           " sz = [size(mat) size(people) size(cells) size(strs)];")
    assert s.get("k") == ["struct", "logical", "cell", "double", "double", "logical", "struct",
                          "cell", "int8", "uint32", "char", "string", "cell", "double"]
    assert s.get("sz").tolist() == [[2, 2, 1, 2, 2, 2, 1, 2]]
    assert s.get("mixed") == [1.0, "two"]
    assert s.get("cfg") == {"n": 3.0, "name": "run", "opts": {"fast": True}}


def test_unconvertible_values_raise_type_error() -> None:
    s = _session()
    for bad in (None, object(), {1: 2}, {"é": 1}, np.array([1], dtype=np.float16), [None]):
        with pytest.raises(TypeError):
            s.set("x", bad)
    with pytest.raises(matfuse.errors.MatlabError):
        s.set("1x", 1.0)


def test_call_and_eval_one_liners(capsys) -> None:
    s = _session()
    assert s.call("max", [3.0, 7.0]) == 7.0
    assert s.call("upper", "abc") == "ABC"
    assert matfuse.eval("x + 1;", x=2) == 3.0
    assert matfuse.eval("numel(c);", c=[1, "a", [2]]) == 3.0
    assert matfuse.eval("y = 1;") is None
    assert matfuse.eval("s.a * 2", s={"a": 4}) == 8.0
    assert "ans =" in capsys.readouterr().out
    assert matfuse.help_text("sin").startswith(" sin")


def test_round_trip_identity() -> None:
    s = _session()
    values = {"d": 1.5, "cfg": {"a": [1.0, "x"], "b": {"c": True}}, "lst": [1.0, "two", [3.0, 4.0]],
              "i": np.array([[1, 2]], dtype=np.uint8), "txt": "héllo"}
    for k, v in values.items():
        s.set(k, v)
    got = {k: s.get(k) for k in values}
    assert got["d"] == 1.5 and got["txt"] == "héllo"
    assert got["cfg"]["a"] == [1.0, "x"] and got["cfg"]["b"] == {"c": True}
    assert got["lst"][0] == 1.0 and got["lst"][1] == "two" and got["lst"][2].tolist() == [[3.0, 4.0]]
    assert got["i"].dtype == np.uint8
    assert class_of(s.interp.base["cfg"]) == "struct"
    assert isinstance(s.interp.base["lst"], CellArray)
    assert not isinstance(s.interp.base["txt"], (StringArray, StructArray))
