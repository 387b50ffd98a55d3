"""The array machinery shared by ``datetime``, ``duration`` and
``calendarDuration`` values.

A time array holds a float64 ndarray ``data`` in MATLAB's shape (the
subclass says what a number means: milliseconds since 1970 for datetime,
milliseconds for duration) and a display ``fmt``. Indexing, indexed
assignment (growing fills with the class's missing value), deletion,
concatenation, ``size``/``numel`` and the command-window display are the
same for every subclass; arithmetic lives in ``time_operators``.

Functions that MATLAB overloads for these classes (``sort``, ``char``,
``isequal``...) are registered per class with :func:`time_method`;
``classdef_objects.method_for`` finds them in the class's ``overloads``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import (CellArray, MObject, StringArray, char_array, class_of,
                                    normalize_shape, to_str)


class TimeArray(MObject):
    """Base class: ``data`` (float64, MATLAB shape) and a display format."""

    class_name = "timearray"
    #: ``[a, b]`` converts the other operands to the first time array's class
    #: (``coerce``) and wraps the joined data (``like``): see ``_concat``
    concatenates_by_coercion = True
    overloads: dict[str, Builtin] = {}
    fill_value = float("nan")

    def __init__(self, data: Any, fmt: str | None = None):
        arr = np.asarray(data, dtype=np.float64)
        if arr.ndim < 2:
            arr = arr.reshape(1, -1) if arr.ndim == 1 else arr.reshape(1, 1)
        elif arr.ndim > 2 and arr.shape[-1] == 1:
            arr = arr.reshape(normalize_shape(arr.shape), order="F")
        self.data = arr
        self.fmt = fmt

    @property
    def shape(self) -> tuple[int, ...]:   # type: ignore[override]
        return self.data.shape

    def like(self, data: Any) -> "TimeArray":
        """A value of the same class and format holding ``data``."""
        return type(self)(data, self.fmt)

    def coerce(self, value: Any) -> np.ndarray:
        """``value`` as this class's data (for assignment and concatenation)."""
        if type(value) is type(self):
            return value.data
        if type(value) is np.ndarray and value.size == 0 and value.dtype.kind in "fb":
            return np.zeros(value.shape)
        raise MatlabError("MATLAB:invalidConversion",
                          f"Conversion to {self.class_name} from {class_of(value)} is not "
                          f"possible.")

    # ------------------------------------------------------------ Format
    def property_names(self) -> list[str]:
        return ["Format"]

    def get_property(self, name: str) -> Any:
        if name == "Format":
            return char_array(self.fmt)
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> "TimeArray":
        if name == "Format":
            return type(self)(self.data, self.checked_format(value))
        return super().set_property(name, value)

    def checked_format(self, value: Any) -> str:
        """A new ``Format`` value as this class accepts it (MATLAB's error if not)."""
        return to_str(value)

    # ------------------------------------------------------------ text
    def element_texts(self) -> list[str]:
        """Each element's text (column-major), as ``char``/``string`` give it."""
        raise NotImplementedError

    def display_lines(self) -> list[str]:
        """MATLAB's display under ``name =``: the class line and the elements."""
        from matfuse.runtime._display_items import dims_text

        if self.data.size == 0:
            return [f"  {dims_text(self.shape)} empty {self.class_name} array"]
        head = (f"  {self.class_name}" if self.data.size == 1
                else f"  {dims_text(self.shape)} {self.class_name} array")
        return [head, ""] + self.body_lines()

    def body_lines(self) -> list[str]:
        """The element rows (pages of N-D arrays one after another)."""
        texts = self.element_texts()
        if not texts:
            return []
        width = max(len(t) for t in texts)
        rows = self.data.shape[0]
        cols = self.data.size // rows
        grid = np.array(texts, dtype=object).reshape((rows, cols), order="F")
        cells = [["   " + t.rjust(width) for t in grid[r]] for r in range(rows)]
        from matfuse.runtime.display import _chunked

        return _chunked(cells, width + 3, cols)

    # -------------------------------------------------------- indexing
    def object_paren_get(self, idx: list) -> "TimeArray":
        from matfuse.runtime.indexing import index_elements

        if not idx:
            return self
        return self.like(index_elements(self.data, idx))

    def object_paren_assign(self, target: Any, idx: list, rhs: Any) -> "TimeArray":
        """``target(idx) = rhs`` where either side is a time array."""
        from matfuse.runtime._assign import paren_set
        from matfuse.runtime._subscripts import DELETE

        base = target if isinstance(target, TimeArray) else rhs
        if target is not None and not isinstance(target, TimeArray) and not (
                type(target) is np.ndarray and target.size == 0):
            raise MatlabError("MATLAB:invalidConversion",
                              f"Conversion to {class_of(target)} from {base.class_name} is not "
                              f"possible.")
        current = target.data if isinstance(target, TimeArray) else np.zeros((0, 0))
        if rhs is DELETE:
            return base.like(paren_set(current.copy(), idx, DELETE))
        values = base.coerce(rhs)
        result = np.asarray(paren_set(current.copy(), idx, values.copy()), dtype=np.float64)
        if result.size > current.size and base.fill_value != 0:
            present = paren_set(np.ones(current.shape), idx, np.ones(values.shape))
            result = np.where(np.asarray(present) == 0, base.fill_value, result)
        return base.like(result)


def time_method(name: str, classes: tuple[type, ...], *, nargin: tuple[int, int | None] = (1, 1),
                nargout: tuple[int, int | None] = (0, 1), wants_nargout: bool = False,
                needs_ctx: bool = False) -> Callable[[Callable], Callable]:
    """Declare ``fn`` as the method ``name`` of each class in ``classes``
    (MATLAB's overload of a builtin for datetime/duration arguments)."""

    def register(fn: Callable) -> Callable:
        decl = Builtin(name=name, impl=fn, category="datetime", min_args=nargin[0],
                       max_args=nargin[1], max_out=nargout[1], needs_ctx=needs_ctx,
                       wants_nargout=wants_nargout, doc=(fn.__doc__ or "").strip())
        for cls in classes:
            cls.overloads[name] = decl
        return fn

    return register


def text_list(value: Any) -> list[str] | None:
    """A char row/matrix, string array or cellstr as a column-major list of
    texts (None for other values)."""
    if type(value) is np.ndarray and value.dtype.kind == "U":
        if value.ndim == 2 and value.shape[0] <= 1:
            return ["".join(value.reshape(-1).tolist())]
        return ["".join(row.tolist()).rstrip() for row in value]
    if type(value) is StringArray:
        return ["" if s is None else s for s in value.data.reshape(-1, order="F")]
    if type(value) is CellArray:
        out = []
        for item in value.data.reshape(-1, order="F"):
            texts = text_list(item)
            if texts is None or len(texts) != 1:
                return None
            out.append(texts[0])
        return out
    return None


def text_shape(value: Any) -> tuple[int, ...]:
    """The shape an array made from the texts of ``value`` takes."""
    if type(value) is np.ndarray:
        return (1, 1) if value.ndim == 2 and value.shape[0] <= 1 else (value.shape[0], 1)
    return value.shape


def broadcast_pair(a: np.ndarray, b: np.ndarray, op: str) -> tuple[np.ndarray, np.ndarray]:
    """``a`` and ``b`` expanded to one shape with MATLAB's implicit expansion."""
    n = max(a.ndim, b.ndim)
    sa = a.shape + (1,) * (n - a.ndim)
    sb = b.shape + (1,) * (n - b.ndim)
    for x, y in zip(sa, sb):
        if x != y and x != 1 and y != 1:
            raise MatlabError("MATLAB:sizeDimensionsMustMatch",
                              "Arrays have incompatible sizes for this operation.")
    return a.reshape(sa), b.reshape(sb)
