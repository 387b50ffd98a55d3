"""containers.Map: construction, lookup and assignment, keys/values order,
isKey/remove, properties, handle semantics, errors and display."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vm"))
from vmutil import run  # noqa: E402


def lines(code: str) -> list[str]:
    return [line.strip() for line in run(code).strip().splitlines() if line.strip()]


def error_of(code: str) -> str:
    return lines(f"try\n{code}\ncatch e\ndisp(e.identifier)\nend")[-1]


def test_empty_map_and_assignment() -> None:
    assert lines("m = containers.Map(); m('b') = 2; m('a') = 1; disp(m.Count); "
                 "disp(class(m.Count)); disp(m('a') + m('b'))") == ["2", "uint64", "3"]
    assert lines("m = containers.Map; disp(m.Count); disp(length(m)); disp(isempty(m))") \
        == ["0", "0", "1"]


def test_keys_are_sorted_and_values_follow_them() -> None:
    out = lines("m = containers.Map({'pear', 'Apple', 'fig'}, {1, 2, 3}); "
                "k = keys(m); fprintf('%s ', k{:}); fprintf('\\n'); "
                "v = values(m); fprintf('%d ', v{:}); fprintf('\\n')")
    assert out == ["Apple fig pear", "2 3 1"]
    out = lines("m = containers.Map([10 2 33], {'a', 'b', 'c'}); k = keys(m); "
                "fprintf('%d ', k{:}); fprintf('\\n'); disp(m.KeyType); disp(m(2))")
    assert out == ["2 10 33", "double", "b"]


def test_values_of_a_key_set_and_is_key() -> None:
    out = lines("m = containers.Map({'a', 'b'}, {1, 2}); v = values(m, {'b', 'a'}); "
                "fprintf('%d ', v{:}); fprintf('\\n'); disp(isKey(m, 'a')); "
                "disp(mat2str(isKey(m, {'a', 'z'; 'b', 'a'})))")
    assert out == ["2 1", "1", "[true false;true true]"]


def test_remove_and_count() -> None:
    assert lines("m = containers.Map({'a', 'b', 'c'}, {1, 2, 3}); remove(m, 'b'); "
                 "remove(m, {'a'}); k = keys(m); disp(k{1}); disp(m.Count)") == ["c", "1"]


def test_handle_semantics() -> None:
    assert lines("m = containers.Map(); m2 = m; m2('x') = 5; disp(m('x')); "
                 "c = {m}; c{1}('y') = 6; disp(m.Count)") == ["5", "2"]


def test_types() -> None:
    assert lines("m = containers.Map({'a', 'b'}, {1, 2}); disp(m.ValueType)") == ["double"]
    assert lines("m = containers.Map({'a', 'b'}, {1, 'x'}); disp(m.ValueType)") == ["any"]
    assert lines("m = containers.Map({'a', 'b'}, {'x', 'yy'}); disp(m.ValueType)") == ["char"]
    assert lines("m = containers.Map({'a', 'b'}, {1, 2}, 'UniformValues', false); "
                 "disp(m.ValueType)") == ["any"]
    assert lines("m = containers.Map('KeyType', 'int32', 'ValueType', 'double'); "
                 "m(int32(4)) = 1.5; m(7) = 2; k = keys(m); disp(class(k{1})); "
                 "disp(m.Count); disp(m.KeyType)") == ["int32", "2", "int32"]


@pytest.mark.parametrize("code, identifier", [
    ("m = containers.Map(); x = m('nope');", "MATLAB:Containers:Map:NoKey"),
    ("m = containers.Map(); remove(m, 'nope');", "MATLAB:Containers:Map:NoKey"),
    ("m = containers.Map(); m(3) = 1;", "MATLAB:Containers:TypeMismatch"),
    ("m = containers.Map('KeyType', 'double', 'ValueType', 'any'); m('a') = 1;",
     "MATLAB:Containers:TypeMismatch"),
    ("m = containers.Map('KeyType', 'char', 'ValueType', 'double'); m('a') = 'text';",
     "MATLAB:Containers:TypeMismatch"),
    ("m = containers.Map({'a', 'b'}, {1});", "MATLAB:Containers:Map:KeyValueNumberMismatch"),
    ("m = containers.Map({'a'}, {1}); v = values(m, {'a', 'q'});",
     "MATLAB:Containers:Map:NoKey"),
])
def test_errors(code: str, identifier: str) -> None:
    assert error_of(code) == identifier


def test_display() -> None:
    assert run("m = containers.Map({'a'}, {1})") == (
        "m = \n\n  Map with properties:\n\n        Count: 1\n      KeyType: char\n"
        "    ValueType: double\n\n")


def test_a_variable_named_like_the_package_wins() -> None:
    assert lines("containers.Map = 3; disp(containers.Map)") == ["3"]


def test_method_call_syntax_takes_arguments() -> None:
    out = lines("m = containers.Map({'a', 'b'}, {1, 2}); v = m.values({'b'}); disp(v{1}); "
                "disp(m.isKey('a')); m.remove('a'); disp(m.Count); disp(m.length())")
    assert out == ["2", "1", "1", "1"]
    # a variable that is a struct keeps field indexing
    assert lines("s.values = [5 6 7]; disp(s.values(2))") == ["6"]


def test_map_without_parentheses_as_an_argument() -> None:
    assert lines("disp(class(containers.Map)); disp(isa(containers.Map, 'handle'))") \
        == ["containers.Map", "1"]


def test_map_is_a_handle_object() -> None:
    assert lines("m = containers.Map; disp([isobject(m) isa(m, 'handle') isobject(1)])") \
        == ["1   1   0"]
