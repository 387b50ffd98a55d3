"""Matrix functions: sqrtm logm (expm is in ``linalg``).

SciPy computes them (Schur-based methods, as MATLAB's); results are real
when the input is real and the function value is real.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from matfuse.runtime.builtins.linalg import finish, float_matrix, require_square
from matfuse.runtime.registry import builtin

@builtin("sqrtm", category="linear_algebra", nargin=(1, 1))
def sqrtm(x: Any) -> Any:
    """Principal matrix square root X*X = A (Schur method); complex when A
    has negative real eigenvalues."""
    import scipy.linalg
    a, single = float_matrix(x, "sqrtm")
    require_square(a, "sqrtm")
    if a.size == 0:
        return finish(a, single)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        root = scipy.linalg.sqrtm(a)
    root = np.asarray(root)
    if root.dtype.kind == "c" and not np.any(root.imag) and a.dtype.kind != "c":
        root = root.real
    return finish(root, single)


@builtin("logm", category="linear_algebra", nargin=(1, 1))
def logm(x: Any) -> Any:
    """Principal matrix logarithm, the inverse of expm; complex when A has
    negative real eigenvalues."""
    import scipy.linalg
    a, single = float_matrix(x, "logm")
    require_square(a, "logm")
    if a.size == 0:
        return finish(a, single)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = np.asarray(scipy.linalg.logm(a))
    if out.dtype.kind == "c" and a.dtype.kind != "c" and np.all(np.abs(out.imag) <= 1e-14 * max(1.0, np.abs(out).max())):
        out = out.real
    return finish(out, single)
