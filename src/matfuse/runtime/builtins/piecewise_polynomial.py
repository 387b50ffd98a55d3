"""Piecewise polynomials: mkpp, unmkpp, ppval.

A piecewise polynomial is MATLAB's ``pp`` struct: ``form`` ('pp'),
``breaks`` (1 x L+1, increasing), ``coefs`` (prod(d)*L x k; row
(piece-1)*prod(d)+component, highest power first, in the local variable
x - breaks(piece)), ``pieces`` (L), ``order`` (k) and ``dim`` (d).
``ppval`` evaluates piece i on [breaks(i), breaks(i+1)); points left of the
first break use the first piece, points right of the last use the last one
(extrapolation), NaN stays NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import StructArray, canonical

PP_FIELDS = ("form", "breaks", "coefs", "pieces", "order", "dim")


def make_pp(breaks: np.ndarray, coefs: np.ndarray, dim: tuple[int, ...] = (1,)) -> StructArray:
    """The pp struct for ``breaks`` (L+1,) and ``coefs`` (prod(dim)*L, k)."""
    pieces = breaks.size - 1
    dim_value: Any = float(dim[0]) if len(dim) == 1 else np.asarray(dim, dtype=np.float64).reshape(1, -1)
    return StructArray.scalar({
        "form": np.array(list("pp"), dtype="<U1").reshape(1, -1),
        "breaks": canonical(breaks.reshape(1, -1).astype(np.result_type(breaks.dtype, np.float64))),
        "coefs": canonical(coefs),
        "pieces": float(pieces),
        "order": float(coefs.shape[1]),
        "dim": dim_value,
    })


def _pp_fields(pp: Any, fn: str) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """(breaks, coefs, dim) of a pp struct argument."""
    if not isinstance(pp, StructArray) or pp.data.size != 1 or any(f not in pp.fields for f in
                                                                   ("breaks", "coefs", "dim")):
        raise MatlabError(f"MATLAB:{fn}:InvalidPP",
                          "First input must be a piecewise polynomial structure (see MKPP).")
    fields = pp.data.reshape(-1)[0]
    breaks = numeric_input(fields["breaks"], fn).reshape(-1).astype(np.float64)
    coefs = numeric_input(fields["coefs"], fn)
    coefs = coefs.astype(np.complex128 if coefs.dtype.kind == "c" else np.float64)
    dim = tuple(int(d) for d in numeric_input(fields["dim"], fn).reshape(-1))
    return breaks, coefs, dim


@builtin("mkpp", category="interpolation", nargin=(2, 3))
def mkpp(breaks: Any, coefs: Any, d: Any = None) -> Any:
    """Make a piecewise polynomial: mkpp(breaks, coefs, d)."""
    b = numeric_input(breaks, "mkpp").reshape(-1).astype(np.float64)
    c = numeric_input(coefs, "mkpp")
    c = c.astype(np.complex128 if c.dtype.kind == "c" else np.float64)
    dim = (1,) if d is None else tuple(int(v) for v in numeric_input(d, "mkpp").reshape(-1))
    pieces = b.size - 1
    rows = int(np.prod(dim)) * pieces
    if pieces < 1 or rows == 0 or c.size % rows != 0:
        raise MatlabError("MATLAB:mkpp:PPNumberMismatchCoeffs",
                          "The number of coefficients does not match the number of pieces "
                          "and the dimension of the polynomial.")
    order = c.size // rows
    # coefs may be given as [d, pieces, order]; linear column-major order is kept.
    return make_pp(b, c.reshape((rows, order), order="F"), dim)


@builtin("unmkpp", category="interpolation", nargin=(1, 1), nargout=(0, 5))
def unmkpp(pp: Any) -> tuple[Any, ...]:
    """Extract the pieces of a piecewise polynomial: [breaks, coefs, l, k, d] = unmkpp(pp)."""
    breaks, coefs, dim = _pp_fields(pp, "unmkpp")
    dim_value: Any = float(dim[0]) if len(dim) == 1 else np.asarray(dim, dtype=np.float64).reshape(1, -1)
    return (canonical(breaks.reshape(1, -1)), canonical(coefs), float(breaks.size - 1),
            float(coefs.shape[1]), dim_value)


def evaluate_pp(breaks: np.ndarray, coefs: np.ndarray, components: int, xs: np.ndarray) -> np.ndarray:
    """Values (components, xs.size) of the piecewise polynomial at the points ``xs``."""
    pieces = breaks.size - 1
    piece = np.clip(np.searchsorted(breaks, xs, side="right") - 1, 0, pieces - 1)
    local = xs - breaks[piece]
    out = np.zeros((components, xs.size), dtype=np.result_type(coefs.dtype, np.float64))
    for comp in range(components):
        rows = coefs[piece * components + comp]          # (xs.size, order)
        acc = rows[:, 0].copy()
        for k in range(1, coefs.shape[1]):
            acc = acc * local + rows[:, k]
        out[comp] = acc
    out[:, np.isnan(xs)] = np.nan
    return out


@builtin("ppval", category="interpolation", nargin=(2, 2))
@ieee_quiet
def ppval(pp: Any, xx: Any) -> Any:
    """Evaluate a piecewise polynomial at the points xx (extrapolating with the end pieces)."""
    breaks, coefs, dim = _pp_fields(pp, "ppval")
    x = numeric_input(xx, "ppval")
    if x.dtype.kind == "c":
        raise MatlabError("MATLAB:ppval:ComplexInput", "Evaluation points must be real.")
    components = int(np.prod(dim))
    vals = evaluate_pp(breaks, coefs, components, x.reshape(-1, order="F").astype(np.float64))
    if dim == (1,):
        return canonical(vals.reshape(x.shape, order="F"))
    x_shape = (x.size,) if x.ndim == 2 and min(x.shape) == 1 else x.shape
    return canonical(vals.reshape(tuple(dim) + x_shape, order="F"))
