"""MATLAB's sparse storage class: 2-D ``double`` (real or complex) and
``logical`` matrices that store only their nonzeros.

A :class:`SparseMatrix` wraps a ``scipy.sparse.csc_matrix`` (compressed
columns, as MATLAB stores them) whose dtype is float64, complex128 or bool,
with sorted row indices and no stored zeros. ``class()`` is the element
class (``double``/``logical``); ``issparse`` tells the storage apart.

Concatenation and the command-window display live here; indexing and
indexed assignment in ``sparse_indexing``, operators in ``sparse_ops`` and the
functions MATLAB overloads for sparse arguments in
``builtins/sparse_*.py`` (registered in ``SparseMatrix.overloads``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import MObject, StringArray, CellArray, StructArray, class_of
from matfuse.runtime._lazy_modules import lazy_module

sp = lazy_module("scipy.sparse")   # imported when the first sparse matrix is made

# Dense work (index arithmetic through a full copy) is used below this many
# elements; larger matrices take the compressed paths.
DENSE_WORK_LIMIT = 4_000_000


class SparseMatrix(MObject):
    """A 2-D sparse ``double``/``logical`` matrix (``csc``: scipy CSC matrix)."""

    #: functions MATLAB overloads for sparse arguments (see ``sparse_dispatch``)
    overloads: Any = {}

    def __init__(self, csc: Any, nzmax: int | None = None):
        mat = csc if isinstance(csc, sp.csc_matrix) else sp.csc_matrix(csc)
        if mat.dtype not in (np.float64, np.complex128, np.bool_):
            mat = mat.astype(np.complex128 if mat.dtype.kind == "c" else np.float64)
        mat.eliminate_zeros()
        if not mat.has_sorted_indices:
            mat.sort_indices()
        self.csc = mat
        self.allocated = max(int(nzmax or 0), mat.nnz, 1)

    # ------------------------------------------------------------ identity
    @property
    def shape(self) -> tuple[int, ...]:   # type: ignore[override]
        return (int(self.csc.shape[0]), int(self.csc.shape[1]))

    @property
    def class_name(self) -> str:   # type: ignore[override]
        return "logical" if self.csc.dtype == np.bool_ else "double"

    @property
    def is_logical(self) -> bool:
        return self.csc.dtype == np.bool_

    @property
    def is_complex(self) -> bool:
        return self.csc.dtype.kind == "c"

    @property
    def nnz(self) -> int:
        return int(self.csc.nnz)

    def full(self) -> np.ndarray:
        """The equivalent full array (same class); MATLAB's size-limit error
        when it cannot fit in memory."""
        from matfuse.runtime._limits import check_allocation

        check_allocation(self.shape, self.csc.dtype.itemsize)
        return np.asarray(self.csc.toarray(order="F"))

    def full_array(self) -> np.ndarray:
        """``to_array``'s hook: the full array."""
        return self.full()

    def storage_bytes(self) -> int:
        """What ``whos`` reports: values and row indices for nzmax
        elements, plus n+1 column pointers (8-byte indices)."""
        item = 1 if self.is_logical else (16 if self.is_complex else 8)
        return self.allocated * (item + 8) + (self.shape[1] + 1) * 8

    def for_columns(self) -> list:
        """What ``for c = S`` assigns: each column as a sparse column."""
        m, n = self.shape
        if m * n == 0:
            return []
        return [SparseMatrix(self.csc[:, j]) for j in range(n)]

    def get_property(self, name: str) -> Any:
        raise MatlabError("MATLAB:structRefFromNonStruct",
                          "Dot indexing is not supported for variables of this type.")

    def __repr__(self) -> str:
        return f"SparseMatrix(shape={self.shape}, nnz={self.nnz}, class={self.class_name})"

    # ------------------------------------------------------------ indexing
    #: ``sparse_index(S, idx)`` and ``sparse_assign(target, idx, rhs)``,
    #: installed by ``sparse_indexing`` (which uses the assignment machinery,
    #: itself importing this module for concatenation)
    index_function: Any = None
    assign_function: Any = None
    #: loads ``sparse_indexing`` when a sparse matrix made without ``sparse``
    #: (a MAT-file, the Python API) is first indexed (``matfuse._compose``)
    indexing_loader: Any = None

    def object_paren_get(self, idx: list) -> "SparseMatrix":
        if SparseMatrix.index_function is None:
            SparseMatrix.indexing_loader()
        return SparseMatrix.index_function(self, idx)

    def object_paren_assign(self, target: Any, idx: list, rhs: Any) -> Any:
        if SparseMatrix.assign_function is None:
            SparseMatrix.indexing_loader()
        return SparseMatrix.assign_function(target, idx, rhs)

    # ------------------------------------------------------------ display
    def display_block(self, name: str, fmt: str) -> str:
        """``name = S`` as MATLAB prints it (loose format)."""
        return f"{name} =\n\n" + "\n".join(self.body_lines(fmt)) + "\n\n"

    def display_lines(self) -> list[str]:
        return self.body_lines("short")

    def body_lines(self, fmt: str = "short") -> list[str]:
        """``   (i,j)        v`` per nonzero in column-major order, or
        ``   All zero sparse: m×n``."""
        from matfuse.runtime._display_items import dims_text
        from matfuse.runtime._format_numbers import numeric_layout

        if self.nnz == 0:
            return [f"   All zero sparse: {dims_text(self.shape)}"]
        coo = self.csc.tocoo()
        rows = (coo.row + 1).tolist()
        cols = (coo.col + 1).tolist()
        values = coo.data.reshape(-1, 1)
        if values.dtype == np.bool_:
            values = values.astype(np.float64)
        layout = numeric_layout(values, fmt)
        row_width = len(str(max(rows)))
        col_width = len(str(max(cols)))
        lines = []
        if layout.scale_header is not None:
            lines += [layout.scale_header, ""]
        for k, (r, c) in enumerate(zip(rows, cols)):
            head = ("(" + str(r)).rjust(row_width + 1) + "," + (str(c) + ")").ljust(col_width + 1)
            lines.append("   " + head + str(layout.texts[k, 0]).rjust(layout.width + 3))
        return lines


# ---------------------------------------------------------------- conversion
def is_sparse(value: Any) -> bool:
    return type(value) is SparseMatrix


def sparse_from_full(arr: Any) -> SparseMatrix:
    """``sparse(A)`` of a full double/logical (real or complex) 2-D value."""
    if type(arr) is SparseMatrix:
        return arr
    a = _full_operand(arr, "sparse")
    return SparseMatrix(sp.csc_matrix(a))


def _full_operand(value: Any, what: str) -> np.ndarray:
    """A full value as a 2-D float64/complex128/bool array; other classes
    and N-D arrays are MATLAB errors."""
    from matfuse.runtime.values import DeviceValue, to_array

    if isinstance(value, DeviceValue):
        raise gpu_sparse_error()
    if isinstance(value, (CellArray, StructArray, StringArray)) or (
            isinstance(value, MObject) and type(value) is not SparseMatrix):
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{what}' for input arguments of type "
                          f"'{class_of(value)}'.")
    arr = to_array(value)
    if arr.ndim > 2:
        raise MatlabError("MATLAB:sparse:NDArray", "N-dimensional sparse arrays are not supported.")
    kind = arr.dtype.kind
    if arr.dtype == np.bool_ or arr.dtype == np.float64 or arr.dtype == np.complex128:
        return arr
    if kind == "U":
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{what}' for input arguments of type 'char'.")
    raise MatlabError("MATLAB:sparse:invalidClass" if what == "sparse" else "MATLAB:sparse:unsupportedClass",
                      f"Sparse matrices of class {class_of(arr)} are not supported; only double "
                      "and logical sparse matrices exist.")


def sparse_from_scipy(mat: Any) -> SparseMatrix:
    """A scipy sparse matrix as a SparseMatrix: bool and uint8 values (how
    scipy.io reads logical sparse data) are logical, others double."""
    csc = sp.csc_matrix(mat)
    if csc.dtype.kind in "bu":
        csc = csc.astype(np.bool_)
    elif csc.dtype.kind == "c":
        csc = csc.astype(np.complex128)
    else:
        csc = csc.astype(np.float64)
    return SparseMatrix(csc)


def as_sparse(value: Any) -> SparseMatrix:
    """Any double/logical value as a SparseMatrix (sparse ones unchanged)."""
    if type(value) is SparseMatrix:
        return value
    return sparse_from_full(value)


def to_full(value: Any) -> Any:
    """A sparse value as the equivalent full value (others unchanged)."""
    if type(value) is SparseMatrix:
        from matfuse.runtime.values import canonical

        return canonical(value.full())
    return value


def gpu_sparse_error() -> MatlabError:
    return MatlabError("MATLAB:sparse:gpuArrayUnsupported",
                       "Sparse matrices are not supported on the GPU in matfuse; use full(S) "
                       "to make a full matrix first.")


def sparse_like_result(mat: Any) -> SparseMatrix:
    """A scipy result as a SparseMatrix, dropping an all-zero imaginary part
    (as MATLAB does for computed results)."""
    out = SparseMatrix(mat)
    if out.is_complex and not np.any(out.csc.data.imag):
        out = SparseMatrix(out.csc.real.astype(np.float64))
    return out


def sparse_truth(value: SparseMatrix) -> bool:
    """``if S``: nonempty and every element nonzero (NaN is an error)."""
    data = value.csc.data
    if value.is_complex:
        data = data.real
    if data.dtype != np.bool_ and np.isnan(data).any():
        raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
    m, n = value.shape
    return m * n > 0 and value.nnz == m * n


def sparse_cat(values: list, axis: int) -> SparseMatrix:
    """``[a, b]`` / ``[a; b]`` with a sparse operand: a sparse result
    (full operands are converted; ``[]`` is skipped)."""
    parts = []
    for v in values:
        if type(v) is np.ndarray and v.shape == (0, 0):
            continue
        parts.append(as_sparse(v))
    if not parts:
        return SparseMatrix(sp.csc_matrix((0, 0)))
    kept = [p for p in parts if p.shape != (0, 0)] or parts[:1]
    other = 1 - axis
    nonempty = [p for p in kept if p.shape[0] * p.shape[1]]
    ref = (nonempty or kept)[0].shape[other]
    kept = [p for p in kept if p.shape[other] == ref or not p.shape[0] * p.shape[1]]
    for p in kept:
        if p.shape[other] != ref:
            raise MatlabError("MATLAB:catenate:dimensionMismatch",
                              "Dimensions of arrays being concatenated are not consistent.")
    kept = [p for p in kept if p.shape[other] == ref]
    if len(kept) == 1:
        return kept[0]
    logical = all(p.is_logical for p in kept)
    mats = [p.csc if logical or not p.is_logical else p.csc.astype(np.float64) for p in kept]
    joined = sp.hstack(mats, format="csc") if axis == 1 else sp.vstack(mats, format="csc")
    return SparseMatrix(joined)
