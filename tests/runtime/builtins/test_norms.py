"""dot cross norm vecnorm."""

from __future__ import annotations

import numpy as np

from builtins_b_support import call, close, raises, row, text

A = np.array([[1.0, 3, 5], [2, 4, 6]])


def test_dot_cross() -> None:
    assert call("dot", row(1, 2, 3), row(4, 5, 6)) == 32.0
    assert call("dot", row(1, 2, 3), row(4, 5, 6).T) == 32.0
    close(call("dot", A, A), row(5, 25, 61))
    c = call("dot", np.array([[1j, 1]]), np.array([[1j, 1]]))
    assert c == 2.0 or np.asarray(c).reshape(-1)[0] == 2
    close(call("cross", row(1, 0, 0), row(0, 1, 0)), row(0, 0, 1))
    raises("MATLAB:dot:InputSizeMismatch", "dot", row(1, 2), row(1, 2, 3))
    raises("MATLAB:cross:InvalidDimAorB", "cross", row(1, 2), row(1, 2))


def test_norms() -> None:
    assert call("norm", row(3, 4)) == 5.0
    assert call("norm", row(3, 4), 1.0) == 7.0
    assert call("norm", row(3, -4), np.array([[np.inf]])) == 4.0
    assert call("norm", row(3, -4), text("inf")) == 4.0
    assert abs(call("norm", A) - np.linalg.norm(A, 2)) < 1e-12
    assert call("norm", A, 1.0) == 11.0
    assert call("norm", A, text("fro")) == np.linalg.norm(A, "fro")
    assert call("norm", np.zeros((0, 0))) == 0.0
    assert call("norm", row(1e200, 1e200)) == np.sqrt(2) * 1e200
    raises("MATLAB:norm:unknownNorm", "norm", A, 3.0)
    close(call("vecnorm", A), np.sqrt(row(5, 25, 61)))
    close(call("vecnorm", A, 1.0, 2.0), np.array([[9.0], [12.0]]))
