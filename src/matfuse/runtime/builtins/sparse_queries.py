"""What MATLAB's size, class and storage queries answer for a sparse
matrix, without making it full: ``size``, ``numel``, ``length``, ``ndims``,
the ``is*`` class and shape predicates, ``isa``, ``disp``, ``double``,
``logical``, ``horzcat``/``vertcat``/``cat``, ``gpuArray``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.sparse_dispatch import call_full, sparse_method
from matfuse.runtime.sparse_matrix import SparseMatrix, gpu_sparse_error, sparse_cat
from matfuse.runtime.values import to_str


@sparse_method("size", nargin=(1, None), nargout=(0, None), needs_ctx=True, wants_nargout=True,
               sparse_first=False)
def sparse_size(ctx: Any, *args: Any, nargout: int = 1) -> Any:
    """``size`` of a sparse matrix (always 2-D)."""
    if type(args[0]) is not SparseMatrix:
        outputs = call_full(ctx, "size", list(args), nargout)
        return tuple(outputs) if len(outputs) > 1 else outputs[0]
    m, n = args[0].shape
    # a read-only array of S's shape that uses no memory: size reads the shape only
    stand_in = np.lib.stride_tricks.as_strided(np.zeros(1, dtype=np.bool_), (m, n), (0, 0),
                                               writeable=False)
    from matfuse.runtime.registry import BUILTINS
    from matfuse.runtime.dispatcher import call_builtin

    outputs = call_builtin(BUILTINS["size"], [stand_in] + list(args[1:]), nargout, ctx)
    return tuple(outputs) if len(outputs) > 1 else outputs[0]


@sparse_method("numel")
def sparse_numel(S: SparseMatrix) -> float:
    """Number of elements m*n."""
    m, n = S.shape
    return float(m * n)


@sparse_method("length")
def sparse_length(S: SparseMatrix) -> float:
    """Largest dimension (0 when empty)."""
    m, n = S.shape
    return float(0 if m * n == 0 else max(m, n))


@sparse_method("ndims")
def sparse_ndims(S: SparseMatrix) -> float:
    """Always 2."""
    return 2.0


def _predicate(name: str, test: Any) -> None:
    def impl(S: SparseMatrix) -> bool:
        return bool(test(S))

    impl.__doc__ = f"``{name}`` of a sparse matrix."
    sparse_method(name)(impl)


_predicate("isempty", lambda S: S.shape[0] * S.shape[1] == 0)
_predicate("isscalar", lambda S: S.shape == (1, 1))
_predicate("isvector", lambda S: (S.shape[0] == 1 or S.shape[1] == 1))
_predicate("isrow", lambda S: S.shape[0] == 1)
_predicate("iscolumn", lambda S: S.shape[1] == 1)
_predicate("ismatrix", lambda S: True)
_predicate("issquare", lambda S: S.shape[0] == S.shape[1])
_predicate("isnumeric", lambda S: not S.is_logical)
_predicate("isfloat", lambda S: not S.is_logical)
_predicate("islogical", lambda S: S.is_logical)
_predicate("isreal", lambda S: not S.is_complex)
_predicate("isinteger", lambda S: False)
_predicate("ischar", lambda S: False)
_predicate("iscell", lambda S: False)
_predicate("iscellstr", lambda S: False)
_predicate("isstruct", lambda S: False)
_predicate("isstring", lambda S: False)
_predicate("isgpuarray", lambda S: False)
_predicate("isobject", lambda S: False)


@sparse_method("isa", nargin=(2, 2), sparse_first=False)
def sparse_isa(S: Any, name: Any) -> bool:
    """``isa(S, 'double')``, ``'logical'``, ``'numeric'``, ``'float'``."""
    if type(S) is not SparseMatrix:
        return False
    cls = to_str(name)
    if cls == S.class_name:
        return True
    return not S.is_logical and cls in ("numeric", "float")


@sparse_method("disp", nargin=(1, 1), nargout=(0, 0), needs_ctx=True)
def sparse_disp(ctx: Any, S: SparseMatrix) -> None:
    """Print the nonzeros as ``(i,j) value`` lines, or ``All zero sparse``."""
    fmt = getattr(ctx, "display_format", "short")
    ctx.write("\n".join(S.body_lines(fmt if fmt == "long" else "short")) + "\n")


@sparse_method("double")
def sparse_double(S: SparseMatrix) -> SparseMatrix:
    """A sparse double matrix (logical ones are converted)."""
    return SparseMatrix(S.csc.astype(np.float64)) if S.is_logical else S


@sparse_method("logical")
def sparse_logical(S: SparseMatrix) -> SparseMatrix:
    """A sparse logical matrix (NaN and complex values are errors)."""
    if S.is_logical:
        return S
    if S.is_complex:
        raise MatlabError("MATLAB:logical:complexNotSupported",
                          "Conversion to logical from complex is not possible.")
    if np.isnan(S.csc.data).any():
        raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    return SparseMatrix(S.csc.astype(np.bool_))


@sparse_method("horzcat", nargin=(0, None), sparse_first=False)
def sparse_horzcat(*args: Any) -> SparseMatrix:
    """``[A, B, ...]`` with a sparse operand: sparse."""
    return sparse_cat(list(args), 1)


@sparse_method("vertcat", nargin=(0, None), sparse_first=False)
def sparse_vertcat(*args: Any) -> SparseMatrix:
    """``[A; B; ...]`` with a sparse operand: sparse."""
    return sparse_cat(list(args), 0)


@sparse_method("cat", nargin=(1, None), needs_ctx=True, sparse_first=False)
def sparse_cat_dim(ctx: Any, dim: Any, *args: Any) -> Any:
    """``cat(1, ...)`` / ``cat(2, ...)`` with a sparse operand (sparse)."""
    if type(dim) in (float, bool) and float(dim) in (1.0, 2.0):
        return sparse_cat(list(args), int(dim) - 1)
    if type(dim) is float and dim >= 3 and dim == int(dim):
        raise MatlabError("MATLAB:sparse:NDArray", "N-dimensional sparse arrays are not supported.")
    return call_full(ctx, "cat", [dim, *args], 1)[0]


@sparse_method("gpuArray", nargin=(1, None), sparse_first=False)
def sparse_gpu_array(*args: Any) -> Any:
    """Sparse matrices stay on the host (a clear error)."""
    raise gpu_sparse_error()
