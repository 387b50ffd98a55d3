"""polyval polyfit polyder polyint roots poly interp1 interp2 spline."""

from __future__ import annotations

import numpy as np
import pytest

from builtins_b_support import call, close, col, raises, row, text
from matfuse.runtime.values import StructArray


def test_polyval_polyfit() -> None:
    assert call("polyval", row(1, 2, 3), 2.0) == 11.0
    close(call("polyval", row(1, 0), row(1, 2, 3)), row(1, 2, 3))
    p = call("polyfit", row(1, 2, 3, 4), row(3, 5, 7, 9), 1.0)
    close(p, row(2, 1), atol=1e-10)
    p, s = call("polyfit", row(0, 1, 2, 3), row(1, 2, 5, 10), 2.0, nargout=2)
    close(p, row(1, 0, 1), atol=1e-10)
    assert isinstance(s, StructArray) and {"R", "df", "normr"} <= set(s.fields)
    p, s, mu = call("polyfit", row(1, 2, 3), row(2, 4, 6), 1.0, nargout=3)
    close(mu, col(2, 1))
    assert call("polyval", p, 3.0, s, mu) == pytest.approx(6.0)
    y, delta = call("polyval", p, 2.0, s, mu, nargout=2)
    assert y == pytest.approx(4.0) and delta >= 0


def test_polyder_polyint() -> None:
    close(call("polyder", row(1, 2, 3)), row(2, 2))
    assert call("polyder", 5.0) == 0.0
    close(call("polyder", row(1, 1), row(1, -1)), row(2, 0))
    q, d = call("polyder", row(1, 0), row(1, 1), nargout=2)
    close(q, 1.0)
    close(d, row(1, 2, 1))
    close(call("polyint", row(3, 2, 1)), row(1, 1, 1, 0))
    close(call("polyint", row(2), 5.0), row(2, 5))


def test_roots_poly() -> None:
    close(call("roots", row(1, -3, 2)), col(2, 1))
    close(call("roots", row(0, 1, -1, 0)), col(1, 0))
    r = call("roots", row(1, 0, 1))
    assert r.dtype.kind == "c"
    close(call("poly", row(1, 2)), row(1, -3, 2))
    close(call("poly", np.array([[1.0, 2], [3, 4]])), row(1, -5, -2), atol=1e-12)
    assert call("roots", row(0, 0)).size == 0


def test_interp1_methods() -> None:
    x, v = row(1, 2, 3), row(10, 20, 40)
    close(call("interp1", x, v, row(1.5, 2.5, 4)), row(15, 30, np.nan))
    assert call("interp1", x, v, 4.0, text("linear"), text("extrap")) == 60.0
    assert call("interp1", x, v, 4.0, text("linear"), 0.0) == 0.0
    close(call("interp1", x, v, row(1.5, 2.4), text("nearest")), row(20, 20))
    close(call("interp1", x, v, row(1.5, 2.5), text("previous")), row(10, 20))
    close(call("interp1", x, v, row(1.5, 2.5), text("next")), row(20, 40))
    assert call("interp1", row(1, 2, 3, 4), row(1, 4, 9, 16), 2.5, text("spline")) == pytest.approx(6.25)
    assert call("interp1", row(1, 2, 3, 4), row(1, 4, 9, 16), 5.0, text("spline")) == pytest.approx(25.0)
    close(call("interp1", v, 1.5), 15.0)
    close(call("interp1", col(1, 2, 3), np.array([[1.0, 2], [3, 4], [5, 6]]), 2.5), row(4, 5))
    assert call("interp1", x, v, col(1.5, 2.5)).shape == (2, 1)
    raises("MATLAB:interp1:RepeatedValuesX", "interp1", row(1, 1, 2), row(1, 2, 3), 1.5)


def test_interp2_spline() -> None:
    v = np.array([[1.0, 2], [3, 4]])
    assert call("interp2", v, 1.5, 1.5) == 2.5
    assert np.isnan(call("interp2", v, 3.0, 1.0))
    assert call("interp2", row(0, 1), row(0, 10), v, 0.5, 5.0) == 2.5
    assert call("spline", row(0, 1, 2, 3), row(0, 1, 8, 27), 1.5) == pytest.approx(3.375)
    assert call("spline", row(0, 1, 2), row(0, 0, 1, 4, 0), 1.0) == pytest.approx(1.0)
