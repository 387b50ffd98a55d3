"""cumsum cumprod cummax cummin diff trapz cumtrapz."""

from __future__ import annotations

import numpy as np

from builtins_b_support import call, close, raises, row, text

A = np.arange(1.0, 7.0).reshape(2, 3, order="F")


def test_cumsum_dims_and_reverse() -> None:
    close(call("cumsum", A), np.array([[1.0, 3, 5], [3, 7, 11]]))
    close(call("cumsum", A, 2.0), np.array([[1.0, 4, 9], [2, 6, 12]]))
    close(call("cumsum", row(1, 2, 3), text("reverse")), row(6, 5, 3))
    close(call("cumprod", row(1, 2, 3)), row(1, 2, 6))
    close(call("cumsum", row(1, np.nan, 3), text("omitnan")), row(1, 1, 4))
    assert call("cumsum", np.zeros((0, 0))).shape == (0, 0)


def test_integer_cumsum_saturates_each_step() -> None:
    out = call("cumsum", np.array([[100, 100, -100]], dtype=np.int8))
    assert out.dtype == np.int8
    assert out.tolist() == [[100, 127, 27]]


def test_cummax_cummin() -> None:
    close(call("cummax", row(1, 3, 2, 5)), row(1, 3, 3, 5))
    close(call("cummin", row(4, 3, 5, 1)), row(4, 3, 3, 1))
    close(call("cummax", row(np.nan, 1, np.nan, 3)), row(np.nan, 1, 1, 3))
    close(call("cummax", row(1, 3, 2), text("reverse")), row(3, 3, 2))


def test_cummax_cummin_complex_compare_magnitude_then_angle() -> None:
    x = np.array([[4, 1j, 4.9, -2, 2, 3 + 4j]])
    close(call("cummax", x), np.array([[4, 4, 4.9, 4.9, 4.9, 3 + 4j]]))
    close(call("cummin", x), np.array([[4, 1j, 1j, 1j, 1j, 1j]]))
    # equal magnitudes: the larger phase angle is the larger element
    close(call("cummax", np.array([[1j, -1j, -1]])), np.array([[1j, 1j, -1]]))


def test_diff() -> None:
    close(call("diff", row(1, 4, 9, 16)), row(3, 5, 7))
    close(call("diff", row(1, 4, 9, 16), 2.0), row(2, 2))
    close(call("diff", A), np.array([[1.0, 1, 1]]))
    close(call("diff", A, 1.0, 2.0), np.array([[2.0, 2], [2, 2]]))
    assert call("diff", 5.0).shape == (0, 1)
    d = call("diff", np.array([[0, 200]], dtype=np.uint8))
    assert d.dtype == np.uint8 and d[0, 0] == 200


def test_trapz_cumtrapz() -> None:
    assert call("trapz", row(1, 2, 3)) == 4.0
    assert call("trapz", row(0, 1, 3), row(1, 2, 3)) == 6.5
    close(call("trapz", A, 2.0), np.array([[6.0], [8.0]]))
    close(call("cumtrapz", row(1, 2, 3)), row(0, 1.5, 4))
    raises("MATLAB:trapz:LengthXMismatchY", "trapz", row(1, 2), row(1, 2, 3))
