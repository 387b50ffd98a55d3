"""mkpp unmkpp ppval, and interp1's 'pp' output form."""

from __future__ import annotations

import numpy as np

from builtins_b_support import call, close, raises, row, text
from matfuse.runtime.values import StructArray


def test_mkpp_ppval_evaluates_pieces_and_extrapolates() -> None:
    pp = call("mkpp", row(0, 1, 2), np.array([[1.0, 0.0], [2.0, 1.0]]))
    assert isinstance(pp, StructArray)
    assert pp.fields == ["form", "breaks", "coefs", "pieces", "order", "dim"]
    close(call("ppval", pp, row(-1, 0, 0.5, 1, 1.5, 3, np.nan)),
          row(-1, 0, 0.5, 1, 2, 5, np.nan))


def test_unmkpp_returns_the_parts() -> None:
    pp = call("mkpp", row(0, 1, 2), np.array([[1.0, 0.0], [2.0, 1.0]]))
    breaks, coefs, pieces, order, dim = call("unmkpp", pp, nargout=5)
    close(breaks, row(0, 1, 2))
    close(coefs, np.array([[1.0, 0.0], [2.0, 1.0]]))
    assert (pieces, order, dim) == (2.0, 2.0, 1.0)


def test_mkpp_rejects_mismatched_coefficients() -> None:
    raises("MATLAB:mkpp:PPNumberMismatchCoeffs", "mkpp", row(0, 1, 2), row(1, 2, 3))
    raises("MATLAB:ppval:InvalidPP", "ppval", 1.0, 2.0)


def test_interp1_pp_form_matches_extrapolated_interpolation() -> None:
    xp = np.arange(0.0, 11.0, 2.0).reshape(1, -1)
    yp = np.sin(2 * np.pi * xp / 5)
    xi = row(-1, 0, 2.2, 4, 6.6, 10, 11)
    for method in ("nearest", "*nearest", "previous", "linear", "*linear",
                   "pchip", "cubic", "spline", "makima"):
        pp = call("interp1", xp, yp, text(method), text("pp"))
        expected = call("interp1", xp, yp, xi, text(method), text("extrap"))
        close(call("ppval", pp, xi), expected, atol=1e-13)


def test_interp1_previous_next_extrapolate_with_end_samples() -> None:
    x, v = row(1, 2, 3, 4, 5), row(3, 5, 7, 9, 11)
    close(call("interp1", x, v, row(0, 6), text("previous"), text("extrap")), row(3, 11))
    close(call("interp1", x, v, row(0, 6), text("next"), text("extrap")), row(3, 11))


def test_interp1_complex_outside_is_nan_in_both_parts() -> None:
    out = call("interp1", row(1, 2), np.array([[1 + 1j, 2 + 2j]]), row(0, 1.5))
    assert np.isnan(out[0, 0].real) and np.isnan(out[0, 0].imag)
    assert out[0, 1] == 1.5 + 1.5j
