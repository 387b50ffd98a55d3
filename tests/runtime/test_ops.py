"""Operators: class rules, saturation, expansion, matrix ops, comparisons."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.runtime.ops import binary, colon_range, ctranspose, is_true, transpose, unary
from matfuse.runtime.values import StringArray, char_array, class_of
from tests.runtime.raises_support import raises, row


def ints(cls: str, *values: int) -> np.ndarray:
    return np.array([values], dtype=np.dtype(cls))


# ------------------------------------------------------------ scalar fast path
def test_float_fast_path_returns_python_scalars() -> None:
    assert binary("+", 1.0, 2.0) == 3.0 and type(binary("+", 1.0, 2.0)) is float
    assert binary("<", 1.0, 2.0) is True
    assert binary("/", 1.0, 0.0) == np.inf
    assert np.isnan(binary("/", 0.0, 0.0))
    assert binary("\\", 2.0, 4.0) == 2.0
    assert binary("^", 0.0, -1.0) == np.inf
    assert binary("&", 1.0, 0.0) is False and binary("|", 1.0, 0.0) is True


def test_negative_base_fractional_power_is_complex() -> None:
    r = binary("^", -8.0, 1.0 / 3.0)
    assert r.dtype == np.complex128 and r.shape == (1, 1)
    assert np.allclose(r, 1.0 + 1.7320508075688772j)
    v = binary(".^", row(-8.0, 8.0), 1.0 / 3.0)
    assert v.dtype.kind == "c" and np.allclose(v[0, 1], 2.0)


def test_all_zero_imaginary_parts_are_dropped() -> None:
    z = np.array([[1 + 2j, 3 - 1j]])
    r = binary("-", z, np.array([[2j, -1j]]))
    assert r.dtype == np.float64 and np.array_equal(r, row(1.0, 3.0))


# ------------------------------------------------------------------ classes
@pytest.mark.parametrize("op,a,b,expected", [
    ("+", ints("int8", 100, -100), 100.0, ints("int8", 127, 0)),
    ("-", ints("int8", -100), 100.0, ints("int8", -128)),
    (".*", ints("uint8", 3), 2.6, ints("uint8", 8)),
    ("./", ints("int32", 7, -7), 2.0, ints("int32", 4, -4)),
    ("./", ints("int16", 1, -1, 0), 0.0, ints("int16", 32767, -32768, 0)),
    ("+", 2.5, ints("int8", 0), ints("int8", 3)),
    ("+", -2.5, ints("int8", 0), ints("int8", -3)),
    ("-", ints("uint8", 5), 10.0, ints("uint8", 0)),
    (".^", ints("int8", 2), 10.0, ints("int8", 127)),
])
def test_integer_arithmetic_rounds_and_saturates(op, a, b, expected) -> None:
    r = binary(op, a, b)
    assert r.dtype == expected.dtype
    assert np.array_equal(r, expected)


def test_mixed_integer_classes_error() -> None:
    raises("MATLAB:mixedClasses", lambda: binary("+", ints("int8", 1), ints("int16", 1)),
           "Integers can only be combined with integers of the same class, or scalar doubles.")


def test_int64_arithmetic_is_exact() -> None:
    big = np.array([[2 ** 62 + 1]], dtype=np.int64)
    r = binary("+", big, big)
    assert r.dtype == np.int64 and int(r[0, 0]) == 2 ** 63 - 1
    r = binary("-", big, np.array([[1]], dtype=np.int64))
    assert int(r[0, 0]) == 2 ** 62
    r = binary("+", np.array([[9007199254740993]], dtype=np.int64), 0.0)
    assert int(r[0, 0]) == 9007199254740993
    r = binary(".*", np.array([[3037000500]], dtype=np.int64), np.array([[3037000500]], dtype=np.int64))
    assert int(r[0, 0]) == 2 ** 63 - 1
    r = binary("./", np.array([[7, -7, 5]], dtype=np.int64), np.array([[2, 2, 0]], dtype=np.int64))
    assert r.tolist() == [[4, -4, 2 ** 63 - 1]]
    r = binary("-", np.array([[0]], dtype=np.uint64), 1.0)
    assert r.dtype == np.uint64 and int(r[0, 0]) == 0


@pytest.mark.parametrize("a,b,cls", [
    (np.array([[1.5]], dtype=np.float32), 2.0, "single"),
    (True, True, "double"),
    (char_array("a"), 1.0, "double"),
    (char_array("ab"), char_array("cd"), "double"),
    (True, ints("uint16", 3), "uint16"),
    (np.array([[1.0]], dtype=np.float32), ints("int8", 3), "int8"),
])
def test_result_classes(a, b, cls) -> None:
    assert class_of(binary("+", a, b)) == cls


def test_char_arithmetic_uses_code_points() -> None:
    assert np.array_equal(binary("+", char_array("ab"), 1.0), row(98.0, 99.0))
    assert binary("+", True, True) == 2.0 and type(binary("+", True, True)) is float


def test_single_is_computed_in_single() -> None:
    r = binary("+", np.array([[1.0]], dtype=np.float32), 1e-10)
    assert r.dtype == np.float32 and r[0, 0] == np.float32(1.0)


# ---------------------------------------------------------------- expansion
def test_implicit_expansion() -> None:
    r = binary("+", row(1.0, 2.0, 3.0), np.array([[10.0], [20.0]]))
    assert r.shape == (2, 3) and r[1, 2] == 23.0
    r = binary("-", np.ones((2, 3, 4)), np.ones((2, 3)))
    assert r.shape == (2, 3, 4)
    r = binary("+", np.ones((3, 1)), np.ones((1, 1, 2)))
    assert r.shape == (3, 1, 2)


def test_incompatible_sizes_error() -> None:
    raises("MATLAB:sizeDimensionsMustMatch", lambda: binary("+", row(1.0, 2.0), row(1.0, 2.0, 3.0)),
           "Arrays have incompatible sizes for this operation.")
    raises("MATLAB:sizeDimensionsMustMatch", lambda: binary("==", np.ones((2, 2)), np.ones((3, 3))))


def test_unsupported_operand_types() -> None:
    from matfuse.runtime.values import CellArray

    raises("MATLAB:UndefinedFunction", lambda: binary("+", CellArray.from_list([1.0]), 1.0),
           "Operator '+' is not supported for operands of type 'cell'.")


# --------------------------------------------------------------- matrix ops
def test_mtimes() -> None:
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert np.array_equal(binary("*", a, a), a @ a)
    assert binary("*", row(1.0, 2.0), np.array([[3.0], [4.0]])) == 11.0
    assert np.array_equal(binary("*", 2.0, a), 2 * a)


def test_mtimes_inner_dimension_error() -> None:
    raises("MATLAB:innerdim", lambda: binary("*", np.ones((2, 3)), np.ones((2, 3))),
           "Incorrect dimensions for matrix multiplication. Check that the number of columns in "
           "the first matrix matches the number of rows in the second matrix. To operate on each "
           "element of the matrix individually, use TIMES (.*) for elementwise multiplication.")


def test_solves() -> None:
    a = np.array([[4.0, 1.0], [2.0, 3.0]])
    b = np.array([[1.0], [2.0]])
    x = binary("\\", a, b)
    assert np.allclose(a @ x, b)
    y = binary("/", b.T, a)
    assert np.allclose(y @ a, b.T)
    # Overdetermined: least squares.
    tall = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    rhs = np.array([[1.0], [2.0], [3.0]])
    assert np.allclose(binary("\\", tall, rhs), np.linalg.lstsq(tall, rhs, rcond=None)[0])
    raises("MATLAB:dimagree", lambda: binary("\\", np.ones((2, 2)), np.ones((3, 1))))


def test_singular_solve_warns(capsys) -> None:
    r = binary("\\", np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[1.0], [2.0]]))
    assert not np.all(np.isfinite(r))
    assert "Matrix is singular to working precision." in capsys.readouterr().err


def test_mpower() -> None:
    a = np.array([[1.0, 1.0], [1.0, 0.0]])
    assert np.array_equal(binary("^", a, 10.0), np.linalg.matrix_power(a, 10))
    assert np.allclose(binary("^", a, -1.0), np.linalg.inv(a))
    assert np.allclose(binary("^", np.array([[4.0, 0.0], [0.0, 9.0]]), 0.5), [[2.0, 0.0], [0.0, 3.0]])
    e = binary("^", 2.0, np.array([[1.0, 0.0], [0.0, 3.0]]))
    assert np.allclose(e, [[2.0, 0.0], [0.0, 8.0]])
    raises("MATLAB:mpower:notScalarAndSquareMatrix", lambda: binary("^", np.ones((2, 3)), 2.0))


# --------------------------------------------------------------- comparisons
def test_comparisons_return_logical() -> None:
    r = binary("<", row(1.0, 2.0, 3.0), 2.0)
    assert r.dtype == np.bool_ and r.tolist() == [[True, False, False]]
    assert binary("==", char_array("abc"), char_array("abc")).all()
    assert binary("==", ints("int8", 1), np.array([[1]], dtype=np.int16)) is True
    assert binary("<", np.array([[1 + 5j]]), np.array([[2 - 5j]])) is True
    assert binary("==", np.array([[1 + 5j]]), 1.0) is False
    assert binary("==", np.nan, np.nan) is False


def test_logical_operators() -> None:
    r = binary("&", row(1.0, 0.0, 2.0), row(1.0, 1.0, 0.0))
    assert r.tolist() == [[True, False, False]]
    raises("MATLAB:nologicalnan", lambda: binary("|", row(np.nan), 1.0),
           "NaN's cannot be converted to logicals.")
    raises("MATLAB:nologicalnan", lambda: binary("&", np.nan, 1.0))


def test_strings() -> None:
    s = binary("+", StringArray.scalar("ab"), char_array("cd"))
    assert isinstance(s, StringArray) and s.data[0, 0] == "abcd"
    assert binary("+", StringArray.scalar("x"), 1.5).data[0, 0] == "x1.5"
    assert binary("==", StringArray.scalar("ab"), char_array("ab")) is True
    assert binary("~=", StringArray.scalar("ab"), StringArray.scalar("ac")) is True


# ------------------------------------------------------------------- unary
def test_unary() -> None:
    assert unary("-", 2.0) == -2.0
    assert unary("~", 0.0) is True
    assert unary("-", True) == -1.0
    assert np.array_equal(unary("-", ints("int8", -128)), ints("int8", 127))
    assert np.array_equal(unary("-", ints("uint8", 5)), ints("uint8", 0))
    assert unary("+", char_array("a")) == 97.0
    assert unary("~", row(1.0, 0.0)).tolist() == [[False, True]]
    raises("MATLAB:nologicalnan", lambda: unary("~", np.nan))


def test_transposes() -> None:
    z = np.array([[1 + 1j, 2.0]])
    assert transpose(z).shape == (2, 1) and transpose(z)[0, 0] == 1 + 1j
    assert ctranspose(z)[0, 0] == 1 - 1j
    raises("MATLAB:transpose:NDArray", lambda: transpose(np.ones((2, 2, 2))))


# -------------------------------------------------------------------- colon
def test_colon_counts_and_endpoints() -> None:
    r = colon_range(0.0, 0.1, 1.0)
    assert r.shape == (1, 11) and r[0, -1] == 1.0 and r[0, 0] == 0.0
    assert colon_range(1.0, None, 1.0) == 1.0
    assert colon_range(5.0, None, 1.0).shape == (1, 0)
    assert colon_range(1.0, 0.0, 5.0).shape == (1, 0)
    assert np.array_equal(colon_range(5.0, -2.0, 0.0), row(5.0, 3.0, 1.0))
    assert colon_range(1.0, None, 3.5).tolist() == [[1.0, 2.0, 3.0]]


def test_colon_classes() -> None:
    r = colon_range(np.array([[1]], dtype=np.int8), None, 4.0)
    assert r.dtype == np.int8 and r.tolist() == [[1, 2, 3, 4]]
    c = colon_range(char_array("a"), None, char_array("e"))
    assert c.dtype.kind == "U" and "".join(c[0]) == "abcde"
    s = colon_range(np.array([[1.0]], dtype=np.float32), None, 3.0)
    assert s.dtype == np.float32
    assert colon_range(np.zeros((0, 0)), None, 3.0).shape == (1, 0)


# ------------------------------------------------------------------ is_true
def test_is_true() -> None:
    assert is_true(1.0) and not is_true(0.0)
    assert not is_true(np.zeros((0, 0)))
    assert not is_true(row(1.0, 0.0))
    assert is_true(char_array("a"))
    raises("MATLAB:nologicalnan", lambda: is_true(np.nan))
