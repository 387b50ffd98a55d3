"""One-row matrix literals ``[a b c]`` of single values (``_expr._row_literal``)
give what the general concatenation gives."""

from __future__ import annotations

import numpy as np
from vmutil import session


def _value(code: str, name: str = "z"):
    s, _, _ = session()
    s.eval(code)
    return s.interp.base[name]


def test_float_rows_are_double_row_vectors() -> None:
    z = _value("x = 3; z = [x x + 1 -x];")
    assert type(z) is np.ndarray and z.dtype == np.float64 and z.tolist() == [[3.0, 4.0, -3.0]]


def test_one_element_is_the_scalar() -> None:
    assert _value("x = 2.5; z = [x];") == 2.5
    assert type(_value("z = [7];")) is float


def test_mixed_classes_concatenate_as_before() -> None:
    z = _value("z = [true 2];")
    assert z.dtype == np.float64 and z.tolist() == [[1.0, 2.0]]
    z = _value("z = [65 'b'];")
    assert z.dtype.kind == "U" and "".join(z.reshape(-1).tolist()) == "Ab"
    z = _value("z = [int8(1) 2.7];")
    assert z.dtype == np.int8 and z.tolist() == [[1, 3]]
    z = _value("z = [[1 2] 3];")
    assert z.tolist() == [[1.0, 2.0, 3.0]]
    z = _value("c = {4, 5}; z = [c{:} 6];")
    assert z.tolist() == [[4.0, 5.0, 6.0]]


def test_a_fresh_array_each_time() -> None:
    s, out, _ = session()
    s.eval("for k = 1:2, z = [k k]; z(1) = 9; w{k} = z; end, fprintf('%d ', w{1}, w{2});")
    assert out.getvalue() == "9 1 9 2 "
