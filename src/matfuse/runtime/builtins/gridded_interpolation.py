"""``griddedInterpolant`` objects.

``F = griddedInterpolant(V)``, ``(x, v)``, ``(X1,...,Xn, V)`` (NDGRID
arrays), ``({x1,...,xn}, V)``, each optionally followed by ``Method`` and
``ExtrapolationMethod``. ``F(xq)`` (1-D: any shape; N-D: an m-by-n matrix of
points), ``F(Xq1,...,Xqn)`` (arrays of one size) and ``F({xq1,...,xqn})``
(a grid) evaluate it. ``F.Values``, ``F.GridVectors``, ``F.Method`` and
``F.ExtrapolationMethod`` read and set its parts (value semantics).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.gridded_interpolant import METHODS, check_grid, evaluate, evaluate_grid
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CellArray,
    DeviceValue,
    MObject,
    canonical,
    char_array,
    class_of,
    to_str,
)


def _floats(v: Any, what: str = "griddedInterpolant") -> np.ndarray:
    if type(v) is float or type(v) is bool:
        return np.array([[float(v)]])
    if type(v) is np.ndarray and v.dtype.kind in "biuf":
        return v.astype(np.float64)
    raise MatlabError(f"MATLAB:{what}:InvalidInput",
                      f"Sample points and values must be numeric, not {class_of(v)}.")


def _method(v: Any, allow_none: bool = False) -> str:
    text = to_str(v).lower() if is_text(v) else None
    if text not in METHODS and not (allow_none and text == "none"):
        raise MatlabError("MATLAB:griddedInterpolant:BadInterpTypeErrId",
                          "Invalid interpolation method." if not allow_none else
                          "Invalid extrapolation method.")
    return text


class GriddedInterpolant(MObject):
    """A gridded data interpolant: grid vectors, values and methods."""

    class_name = "griddedInterpolant"

    def __init__(self, grids: list[np.ndarray], values: np.ndarray, method: str,
                 extrap: str, value_sets: bool = False):
        self.grids = grids
        self.values = values
        self.method = method
        self.extrap = extrap
        # 1-D data with several value columns (v is n-by-k)
        self.value_sets = value_sets

    def _copy(self, **changes: Any) -> "GriddedInterpolant":
        parts = dict(grids=self.grids, values=self.values, method=self.method,
                     extrap=self.extrap, value_sets=self.value_sets)
        parts.update(changes)
        out = GriddedInterpolant(**parts)
        values = out._checked_values()
        grid_values = values if not out.value_sets else values[:, 0]
        check_grid(out.grids, grid_values.reshape(grid_values.shape[0], *out.values.shape[1:])
                   if not out.value_sets else grid_values, out.method)
        return out

    def _checked_values(self) -> np.ndarray:
        """The values, or for values on the device (a griddedInterpolant
        built from gpuArrays) a free stand-in of their shape: the grid
        checks look only at the shape."""
        if not isinstance(self.values, DeviceValue):
            return self.values
        shape = tuple(self.values.shape)
        if len(self.grids) == 1 and not self.value_sets:
            shape = (int(np.prod(shape)),)
        return np.broadcast_to(np.zeros((1,) * len(shape)), shape)

    def _on_host(self) -> "GriddedInterpolant":
        """This interpolant with its values read back from the device."""
        values = _floats(self.values.gather())
        if len(self.grids) == 1 and not self.value_sets:
            values = values.reshape(-1, order="F")
        return GriddedInterpolant(self.grids, values, self.method, self.extrap, self.value_sets)

    # ---------------------------------------------------------- evaluation
    def object_paren_get(self, idx: list) -> Any:
        """``F(xq)``, ``F(Xq1,...,Xqn)``, ``F({xq1,...,xqn})``; gpuArray
        queries (or values) of the first two forms go through
        ``_gridded_evaluate`` (the device evaluates them where it can); a
        grid of query vectors is evaluated on the host and the result placed
        on the device."""
        device = _device_query(idx)
        if isinstance(self.values, DeviceValue) and device is None:
            device = self.values
        if device is None:
            return self._evaluate(idx)
        queries = self._query_arrays(idx)
        if queries is not None:
            from matfuse.runtime.dispatcher import call_builtin
            from matfuse.runtime.registry import lookup

            args = [self.values, char_array(self.method), char_array(self.extrap),
                    *[g.reshape(-1, 1) for g in self.grids], *queries]
            return call_builtin(lookup("_gridded_evaluate"), args, 1, None)[0]
        from matfuse.accelerate_api import count_fallback
        from matfuse.runtime.device_router import device_router

        count_fallback("griddedInterpolant")
        host = self._on_host() if isinstance(self.values, DeviceValue) else self
        return device_router().to_device_like(host._evaluate(_gathered(idx)), device)

    def _query_arrays(self, idx: list) -> list | None:
        """Same-size query arrays of ``F(xq)`` (1-D), ``F(P)`` (P m-by-d) and
        ``F(Xq1,...,Xqn)``, or None for the other forms (and bad queries,
        whose errors the host path raises)."""
        from matfuse.runtime.indexing import paren_get

        d = len(self.grids)
        if d == 0 or self.value_sets or any(type(a) is CellArray for a in idx):
            return None
        if len(idx) == d:
            shapes = {tuple(getattr(a, "shape", (1, 1))) for a in idx}
            return list(idx) if len(shapes) == 1 else None
        if len(idx) == 1 and d > 1:
            shape = tuple(getattr(idx[0], "shape", (1, 1)))
            if len(shape) != 2 or shape[1] != d:
                return None
            return [paren_get(idx[0], [char_array(":"), float(k + 1)]) for k in range(d)]
        return None

    def _evaluate(self, idx: list) -> Any:
        d = len(self.grids)
        if d == 0:
            raise MatlabError("MATLAB:griddedInterpolant:EmptyInterpolantErrId",
                              "The interpolant is empty: set its GridVectors and Values "
                              "before evaluating it.")
        if len(idx) == 1 and type(idx[0]) is CellArray:
            queries = [_floats(q).reshape(-1, order="F") for q in idx[0].data.reshape(-1, order="F")]
            if len(queries) != d:
                raise MatlabError("MATLAB:griddedInterpolant:BadGridQueryErrId",
                                  f"Grid vectors must be a cell array with {d} elements.")
            if self.value_sets:
                return self._value_sets(queries[0], (queries[0].size, 1))
            return canonical(evaluate_grid(self.grids, self.values, queries, self.method,
                                           self.extrap))
        args = [_floats(a) for a in idx]
        if d == 1 and len(args) == 1:
            q = args[0]
            if self.value_sets:
                return self._value_sets(q.reshape(-1, order="F"), q.shape)
            out = evaluate(self.grids, self.values.reshape(-1), q.reshape(-1, 1, order="F"),
                           self.method, self.extrap)
            return canonical(out.reshape(q.shape, order="F"))
        if len(args) == 1:
            points = args[0]
            if points.ndim != 2 or points.shape[1] != d:
                raise MatlabError("MATLAB:griddedInterpolant:BadQueryDimsErrId",
                                  f"Query points must be an m-by-{d} matrix.")
            return canonical(evaluate(self.grids, self.values, points, self.method,
                                      self.extrap).reshape(-1, 1))
        if len(args) != d:
            raise MatlabError("MATLAB:griddedInterpolant:BadNumQueryArgsErrId",
                              f"Specify {d} query coordinate arrays.")
        shape = args[0].shape
        if any(a.shape != shape for a in args):
            raise MatlabError("MATLAB:griddedInterpolant:QueryMismatchErrId",
                              "Query coordinate arrays must be the same size.")
        points = np.stack([a.reshape(-1, order="F") for a in args], axis=1)
        out = evaluate(self.grids, self.values, points, self.method, self.extrap)
        return canonical(out.reshape(shape, order="F"))

    def _value_sets(self, q: np.ndarray, shape: tuple[int, ...]) -> Any:
        columns = self.values.reshape(self.values.shape[0], -1, order="F")
        outs = [evaluate(self.grids, columns[:, j], q.reshape(-1, 1), self.method, self.extrap)
                for j in range(columns.shape[1])]
        return canonical(np.stack(outs, axis=1))

    # ---------------------------------------------------------- properties
    def property_names(self) -> list[str]:
        return ["GridVectors", "Values", "Method", "ExtrapolationMethod"]

    def get_property(self, name: str) -> Any:
        if name == "GridVectors":
            if not self.grids:
                return CellArray.empty((0, 0))
            return CellArray.from_list([canonical(g.reshape(1, -1)) for g in self.grids])
        if name == "Values":
            if isinstance(self.values, DeviceValue):
                if len(self.grids) == 1 and not self.value_sets:
                    return _device_row(self.values)
                return self.values
            return canonical(self.values)
        if name == "Method":
            return char_array(self.method)
        if name == "ExtrapolationMethod":
            return char_array(self.extrap)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> "GriddedInterpolant":
        if name == "Values":
            values = _floats(value)
            if len(self.grids) == 1 and not self.value_sets:
                values = values.reshape(-1)
            return self._copy(values=values)
        if name == "Method":
            method = _method(value)
            extrap = method if self.extrap == self.method else self.extrap
            return self._copy(method=method, extrap=extrap)
        if name == "ExtrapolationMethod":
            return self._copy(extrap=_method(value, allow_none=True))
        if name == "GridVectors":
            if type(value) is not CellArray:
                raise MatlabError("MATLAB:griddedInterpolant:BadGridVecsErrId",
                                  "GridVectors must be a cell array of grid vectors.")
            grids = [_floats(g).reshape(-1) for g in value.data.reshape(-1, order="F")]
            return self._copy(grids=grids)
        return super().set_property(name, value)

    def display_lines(self) -> list[str]:
        from matfuse.runtime._display_items import field_value_text

        names = self.property_names()
        width = max(len(n) for n in names)
        lines = ["  griddedInterpolant with properties:", ""]
        for n in names:
            if n == "GridVectors" and self.grids:
                text = "{" + "  ".join(field_value_text(canonical(g.reshape(1, -1)))
                                       for g in self.grids) + "}"
            else:
                text = field_value_text(self.get_property(n))
            lines.append(f"    {n.rjust(width)}: {text}")
        return lines


def _device_row(values: DeviceValue) -> Any:
    """1-D values on the device as the row the host shows."""
    from matfuse.runtime.dispatcher import call_builtin
    from matfuse.runtime.registry import lookup

    n = float(np.prod(values.shape))
    return call_builtin(lookup("reshape"), [values, 1.0, n], 1, None)[0]


def _device_query(idx: list) -> DeviceValue | None:
    """The first gpuArray among the query arguments (inside a cell too)."""
    for a in idx:
        items = a.data.reshape(-1) if type(a) is CellArray else [a]
        for item in items:
            if isinstance(item, DeviceValue):
                return item
    return None


def _gathered(idx: list) -> list:
    out = []
    for a in idx:
        if type(a) is CellArray:
            items = [v.gather() if isinstance(v, DeviceValue) else v
                     for v in a.data.reshape(-1, order="F")]
            out.append(CellArray.from_list(items, a.shape))
        else:
            out.append(a.gather() if isinstance(a, DeviceValue) else a)
    return out


def _split_methods(args: list) -> tuple[list, str, str | None]:
    texts = []
    while args and is_text(args[-1]):
        texts.insert(0, args.pop())
    if len(texts) > 2:
        raise MatlabError("MATLAB:griddedInterpolant:BadInterpTypeErrId",
                          "Invalid interpolation method.")
    method = _method(texts[0]) if texts else "linear"
    extrap = _method(texts[1], allow_none=True) if len(texts) == 2 else None
    return args, method, extrap


@builtin("griddedInterpolant", category="interpolation", nargin=(0, None))
def gridded_interpolant(*args: Any) -> GriddedInterpolant:
    """Create a gridded data interpolant (1-D, 2-D or N-D, NDGRID layout);
    methods ``linear`` (default) ``nearest next previous pchip cubic spline
    makima``; the extrapolation method defaults to the method (``'none'``
    gives NaN outside the grid)."""
    rest, method, extrap = _split_methods(list(args))
    extrap = extrap or method
    value_sets = False
    if not rest:
        return GriddedInterpolant([], np.zeros((0, 0)), method, extrap)
    if len(rest) == 1:
        v = _floats(rest[0])
        if v.ndim == 2 and min(v.shape) == 1:
            v = v.reshape(-1, order="F")
        grids = [np.arange(1.0, n + 1) for n in v.shape]
    elif len(rest) == 2 and type(rest[0]) is CellArray:
        v = _floats(rest[1])
        grids = [_floats(g).reshape(-1, order="F") for g in rest[0].data.reshape(-1, order="F")]
        if len(grids) == 1 and v.ndim == 2 and min(v.shape) == 1:
            v = v.reshape(-1, order="F")
    elif len(rest) == 2:
        x = _floats(rest[0]).reshape(-1, order="F")
        v = _floats(rest[1])
        if v.ndim == 2 and min(v.shape) == 1 and v.size == x.size:
            v = v.reshape(-1, order="F")
        elif v.shape[0] == x.size and v.size > x.size:
            value_sets = True
        else:
            raise MatlabError("MATLAB:griddedInterpolant:CompVecValueMismatchErrId",
                              "The sample points and values must have the same length.")
        order = np.argsort(x, kind="stable")
        x, v = x[order], v[order]
        grids = [x]
    else:
        v = _floats(rest[-1])
        full = [_floats(a) for a in rest[:-1]]
        if any(a.shape != v.shape for a in full):
            raise MatlabError("MATLAB:griddedInterpolant:GridValueMismatchErrId",
                              "The grid arrays and the values must be the same size.")
        grids = [np.moveaxis(a, k, 0).reshape(a.shape[k], -1)[:, 0] for k, a in enumerate(full)]
    if value_sets:
        check_grid(grids, v[:, 0], method)
    else:
        check_grid(grids, v, method)
    return GriddedInterpolant(grids, v, method, extrap, value_sets)


@builtin("_gridded_evaluate", category="interpolation", nargin=(5, None))
def gridded_evaluate(v: Any, method: Any, extrap: Any, *grids_and_queries: Any) -> Any:
    """Internal: a griddedInterpolant's values at same-size query arrays
    (``V, method, extrap, g1..gd, q1..qd``), the entry its gpuArray queries
    take to the device."""
    d = len(grids_and_queries) // 2
    grids = [_floats(g).reshape(-1) for g in grids_and_queries[:d]]
    queries = [_floats(q) for q in grids_and_queries[d:]]
    shape = queries[0].shape
    points = np.stack([q.reshape(-1, order="F") for q in queries], axis=1)
    values = _floats(v)
    if d == 1:
        values = values.reshape(-1)
    out = evaluate(grids, values, points, to_str(method), to_str(extrap))
    return canonical(out.reshape(shape, order="F"))
