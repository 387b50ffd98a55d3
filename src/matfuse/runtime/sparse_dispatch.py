"""Which function runs when a sparse matrix is an argument.

``classdef_objects.method_for`` asks ``SparseMatrix.overloads.get(name)``
for every call with a sparse argument. The answer is, in order:

1. a sparse method declared with :func:`sparse_method` (``sparse``,
   ``full``, ``find``, ``sum``, ``size``, ``kron``... in
   ``builtins/sparse_*.py``): works on the compressed data;
2. None for functions that take any value as it is (``class``, ``struct``,
   ``deal``, ``cellfun``...): they receive the sparse matrix itself;
3. for any other builtin, a host path: the sparse arguments are made full,
   the builtin runs, and for functions MATLAB documents as returning sparse
   results for sparse input (elementwise math, reductions, ``sort``,
   ``repmat``...; ``SPARSE_RESULTS``) the first output is stored sparse
   again. Results match MATLAB's values; memory is that of the full matrix;
4. None for names that are not builtins (user functions get the matrix).
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.runtime.registry import BUILTINS, Builtin
from matfuse.runtime.sparse_matrix import SparseMatrix, as_sparse
from matfuse.runtime.values import CellArray, canonical, class_of

# Functions that keep any argument as it is (no conversion to full).
PASS_THROUGH = frozenset((
    "class", "struct", "deal", "feval", "cellfun", "arrayfun", "setfield", "getfield",
    "builtin", "func2str", "num2cell", "cell", "isfield", "fieldnames", "rmfield",
    "orderfields", "containers.Map", "assignin", "evalin", "error", "warning", "rethrow",
    "throw", "tic", "toc", "parfeval", "subsref", "subsasgn", "isobject", "validateattributes",
))

# Builtins whose first output MATLAB stores sparse when an input is sparse.
SPARSE_RESULTS = frozenset((
    # elementwise math
    "abs", "sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
    "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sec", "csc",
    "cot", "floor", "ceil", "round", "fix", "real", "imag", "conj", "sign", "angle", "isnan",
    "isinf", "isfinite", "rem", "mod", "power", "hypot", "atan2", "times", "rdivide",
    "ldivide", "uminus", "uplus", "not", "and", "or", "xor", "eq", "ne", "lt", "le", "gt",
    "ge", "double", "logical", "cbrt", "nthroot", "realsqrt", "deg2rad", "rad2deg",
    # reductions, reordering and reshaping
    "sum", "prod", "max", "min", "cumsum", "cumprod", "mean", "any", "all", "sort",
    "sortrows", "diff", "repmat", "reshape", "fliplr", "flipud", "flip", "circshift",
    "rot90", "kron", "diag", "tril", "triu", "transpose", "ctranspose", "permute",
    "squeeze", "mode", "unique", "inv", "chol", "mtimes", "plus", "minus",
))


def sparse_method(name: str, *, nargin: tuple[int, int | None] = (1, 1),
                  nargout: tuple[int, int | None] = (0, 1), needs_ctx: bool = False,
                  wants_nargout: bool = False,
                  sparse_first: bool = True) -> Callable[[Callable], Callable]:
    """Declare ``fn`` as what ``name`` does when an argument is sparse.

    With ``sparse_first`` (the default) ``fn`` handles calls whose first
    argument is sparse (``tril(S, k)``); other calls (``tril(A, S)``) take
    the full-matrix path of the builtin ``name``."""

    def register(fn: Callable) -> Callable:
        def method(ctx: Any, *args: Any, nargout: int = 1) -> Any:
            if sparse_first and not (args and type(args[0]) is SparseMatrix) and name in BUILTINS:
                return _full_path_outputs(ctx, name, list(args), nargout)
            head = (ctx,) if needs_ctx else ()
            tail = {"nargout": nargout} if wants_nargout else {}
            return fn(*head, *args, **tail)

        SparseMatrix.overloads[name] = Builtin(
            name=name, impl=method, category="sparse", min_args=nargin[0], max_args=nargin[1],
            max_out=nargout[1], needs_ctx=True, wants_nargout=True,
            doc=(fn.__doc__ or "").strip())
        return fn

    return register


class SparseOverloads(dict):
    """Explicit sparse methods, plus the full-argument host path for the
    other builtins (made on first use and kept)."""

    def get(self, name: str, default: Any = None) -> Any:   # type: ignore[override]
        found = dict.get(self, name)
        if found is not None:
            return found
        if name in PASS_THROUGH:
            return default
        target = BUILTINS.get(name)
        if target is None:
            return default
        host = _host_path(target, name)
        self[name] = host
        return host


SparseMatrix.overloads = SparseOverloads()


def full_args(args: list | tuple) -> list:
    """The arguments with sparse matrices made full (top level only)."""
    return [canonical(a.full()) if type(a) is SparseMatrix else a for a in args]


def call_full(ctx: Any, name: str, args: list, nargout: int) -> list:
    """Run builtin ``name`` on full copies of ``args`` (a list of outputs)."""
    from matfuse.runtime.dispatcher import auto_offload_suspended, call_builtin

    # the result is stored sparse again on the host: no automatic offload
    with auto_offload_suspended():
        return call_builtin(BUILTINS[name], full_args(args), nargout, ctx)


def restore_sparse(value: Any) -> Any:
    """A double/logical 2-D result stored sparse; other values unchanged."""
    if type(value) is SparseMatrix or isinstance(value, CellArray):
        return value
    if type(value) in (float, bool, complex) or (
            hasattr(value, "ndim") and getattr(value, "ndim", 3) == 2
            and class_of(value) in ("double", "logical")):
        return as_sparse(value)
    return value


def _full_path_outputs(ctx: Any, name: str, args: list, nargout: int) -> Any:
    """Run builtin ``name`` on full arguments; documented sparse results
    are stored sparse again."""
    outputs = call_full(ctx, name, args, nargout)
    if name in SPARSE_RESULTS and outputs:
        outputs[0] = restore_sparse(outputs[0])
    if not outputs:
        return None
    return tuple(outputs) if len(outputs) > 1 else outputs[0]


def _host_path(target: Builtin, name: str) -> Builtin:
    def host(ctx: Any, *args: Any, nargout: int = 1) -> Any:
        return _full_path_outputs(ctx, name, list(args), nargout)

    return Builtin(name=name, impl=host, category="sparse", min_args=target.min_args,
                   max_args=target.max_args, max_out=target.max_out, needs_ctx=True,
                   wants_nargout=True, doc=target.doc)
