"""Sparse matrices in MAT-files.

Version 5/7 files: scipy.io writes and reads MATLAB's sparse arrays
(``mxSPARSE_CLASS``); a logical sparse array comes back from scipy as
uint8 values (MATLAB has no uint8 sparse class), turned back into logical
here.

Version 7.3 (HDF5) files use MATLAB's layout: a group with the
``MATLAB_class`` attribute (``double``/``logical``) and ``MATLAB_sparse``
(the row count), holding ``jc`` (column pointers), ``ir`` (row indices)
and ``data`` (the nonzeros; real/imag compound for complex values).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.runtime.sparse_matrix import SparseMatrix, sparse_from_scipy
from matfuse.runtime._lazy_modules import lazy_module

sp = lazy_module("scipy.sparse")   # imported when the first sparse matrix is made


def is_scipy_sparse(value: Any) -> bool:
    return sp.issparse(value)


def sparse_from_v5(mat: Any) -> SparseMatrix:
    """What scipy.io read for a sparse variable, as a SparseMatrix."""
    return sparse_from_scipy(mat)


def sparse_to_v5(S: SparseMatrix) -> Any:
    """What scipy.io.savemat writes as a MATLAB sparse array."""
    return S.csc.copy()


def write_sparse_v73(parent: Any, name: str, S: SparseMatrix) -> Any:
    """A v7.3 sparse group for S under ``parent``."""
    csc = S.csc
    node = parent.create_group(name)
    node.attrs["MATLAB_class"] = np.bytes_(S.class_name)
    node.attrs["MATLAB_sparse"] = np.uint64(S.shape[0])
    node.create_dataset("jc", data=csc.indptr.astype(np.uint64))
    if csc.nnz:
        node.create_dataset("ir", data=csc.indices.astype(np.uint64))
        if S.is_complex:
            data = np.empty(csc.nnz, dtype=[("real", np.float64), ("imag", np.float64)])
            data["real"] = csc.data.real
            data["imag"] = csc.data.imag
        elif S.is_logical:
            data = csc.data.astype(np.uint8)
        else:
            data = csc.data
        node.create_dataset("data", data=data)
    if S.is_logical:
        node.attrs["MATLAB_int_decode"] = np.int32(1)
    return node


def is_v73_sparse(node: Any) -> bool:
    return node.attrs.get("MATLAB_sparse") is not None


def read_sparse_v73(node: Any) -> SparseMatrix:
    """The SparseMatrix stored in a v7.3 sparse group."""
    rows = int(np.asarray(node.attrs["MATLAB_sparse"]))
    jc = np.asarray(node["jc"][()], dtype=np.int64).reshape(-1)
    cols = max(jc.size - 1, 0)
    logical = (node.attrs.get("MATLAB_class") or b"double") in (b"logical", "logical")
    if "data" in node and "ir" in node:
        ir = np.asarray(node["ir"][()], dtype=np.int64).reshape(-1)
        raw = np.asarray(node["data"][()]).reshape(-1)
        if raw.dtype.names is not None and {"real", "imag"} <= set(raw.dtype.names):
            data = raw["real"].astype(np.complex128)
            data.imag = raw["imag"]
        elif logical:
            data = raw.astype(np.bool_)
        else:
            data = raw.astype(np.float64)
    else:
        ir = np.zeros(0, dtype=np.int64)
        data = np.zeros(0, dtype=np.bool_ if logical else np.float64)
    csc = sp.csc_matrix((data, ir, jc), shape=(rows, cols))
    return SparseMatrix(csc)
