"""corr: linear or rank correlation between the columns of matrices.

``corr(X)`` correlates the columns of X with each other, ``corr(X, Y)`` the
columns of X with those of Y; 'Type' is 'Pearson' (default), 'Spearman'
(Pearson on tie-averaged ranks) or 'Kendall' (tau-b); 'Rows', 'complete'
drops rows holding NaN. ``[rho, pval]`` adds p-values for the hypothesis of
no correlation (SciPy's tests: Student's t for Pearson and Spearman,
Kendall's tau test).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._reduction_args import ieee_quiet, numeric_input
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import canonical, to_str


def _matrix(v: Any) -> np.ndarray:
    arr = numeric_input(v, "corr").astype(np.float64)
    if arr.ndim != 2:
        raise MatlabError("stats:corr:InputsMustBeMatrices", "X and Y must be 2-D matrices.")
    return arr.reshape(-1, 1) if arr.shape[0] == 1 else arr


def _pair(x: np.ndarray, y: np.ndarray, kind: str) -> tuple[float, float]:
    import scipy.stats
    if x.size < 2:
        return np.nan, np.nan
    if kind == "pearson":
        res = scipy.stats.pearsonr(x, y)
    elif kind == "spearman":
        res = scipy.stats.spearmanr(x, y)
    else:
        res = scipy.stats.kendalltau(x, y)
    return float(res[0]), float(res[1])


@builtin("corr", category="statistics", nargin=(1, None), nargout=(0, 2), wants_nargout=True)
@ieee_quiet
def corr(x: Any, *args: Any, nargout: int = 1) -> Any:
    """Pairwise correlation of columns: corr(X), corr(X, Y), 'Type', 'Rows'."""
    rest = list(args)
    y = None
    if rest and not is_text(rest[0]):
        y = rest.pop(0)
    kind, rows = "pearson", "all"
    for name, value in zip(rest[::2], rest[1::2]):
        key = to_str(name).lower()
        if key == "type":
            kind = to_str(value).lower()
            if kind not in ("pearson", "spearman", "kendall"):
                raise MatlabError("stats:corr:UnknownType", "TYPE must be 'Pearson', 'Kendall', or 'Spearman'.")
        elif key == "rows":
            rows = to_str(value).lower()
        elif key != "tail":
            raise MatlabError("stats:corr:UnknownParameter", f"Invalid parameter name: {to_str(name)}.")
    a = _matrix(x)
    b = a if y is None else _matrix(y)
    if a.shape[0] != b.shape[0]:
        raise MatlabError("stats:corr:InputSizeMismatch", "X and Y must have the same number of rows.")
    if rows == "complete":
        keep = ~(np.any(np.isnan(a), axis=1) | np.any(np.isnan(b), axis=1))
        a, b = a[keep], b[keep]
    rho = np.empty((a.shape[1], b.shape[1]))
    pval = np.empty_like(rho)
    for i in range(a.shape[1]):
        for j in range(b.shape[1]):
            xi, yj = a[:, i], b[:, j]
            if rows == "pairwise":
                ok = ~(np.isnan(xi) | np.isnan(yj))
                xi, yj = xi[ok], yj[ok]
            if np.any(np.isnan(xi)) or np.any(np.isnan(yj)):
                rho[i, j], pval[i, j] = np.nan, np.nan
            else:
                rho[i, j], pval[i, j] = _pair(xi, yj, kind)
    if y is None:
        np.fill_diagonal(rho, 1.0)
    if nargout >= 2:
        return canonical(rho), canonical(pval)
    return canonical(rho)
