"""Device paths of ``rat`` and ``rats``: the continued-fraction expansion of
every element of a gpuArray, as elementwise device operations.

The expansion is the host's (``rational_factor``), element by element:
``n = round(x)``, ``frac = x - n``; while ``abs(x - n/d) >= tol`` and
``frac ~= 0``: ``step = round(1/frac)``, ``frac = 1/frac - step``, ``[n,
lastn] = [n*step + lastn, n]``, ``[d, lastd] = [d*step + lastd, d]``. Each
round updates the elements still active through the exact select ``m.*a +
(1-m).*b`` (the value not picked is always finite: an inactive element
divides by ``frac + 1``, never by 0); one scalar read per round (``any`` of
the active mask) ends the loop when every element has converged. NaN and
Inf give MATLAB's ``0/0`` and ``sign(x)/0``.

``[N, D] = rat(X)`` stays on the device. The text forms (``S = rat(X)``
and ``rats``) compute the expansion there and read back only what the text
is made of (the terms, or N and D), which the host's formatting turns into
characters: a read of a printed result, not a fallback.

Left to the host (None: the counted fallback, which also raises MATLAB's
errors): complex or empty input, a tolerance or width that is not a real
scalar, and device values of other providers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import call, host_scalar, op
from matfuse.runtime.values import DeviceValue, char_array, is_char

_REALMAX = float(np.finfo(np.float64).max)
_LIKE = char_array("like")
_CLASSES = ("double", "single", "logical", "int8", "uint8", "int16", "uint16", "int32", "uint32")
#: largest number of expansion rounds: a double's expansion ends long before
#: (each round at least doubles the denominator's size past the first few)
_MAX_ROUNDS = 100


def _real_input(x: Any) -> GpuArray | None:
    """``x(:)`` as double for a non-empty real gpuArray, else None."""
    if not isinstance(x, GpuArray) or x.is_complex() or 0 in x.shape or \
            x.matlab_class not in _CLASSES:
        return None
    column = call("reshape", x, float(x.numel), 1.0)
    return column if x.matlab_class == "double" else call("double", column)


def _select(mask: Any, picked: Any, other: Any) -> Any:
    """``picked`` where the 0/1 ``mask`` is 1, else ``other`` (both exact)."""
    return op("+", op(".*", mask, picked), op(".*", op("-", 1.0, mask), other))


def _settle(*values: Any) -> None:
    """Compute lazy (fused) values now: each round then starts from concrete
    arrays, so its kernels are the same from round to round (compiled once)
    instead of growing with every round."""
    for v in values:
        if isinstance(v, GpuArray):
            v.materialize()


def _host_value(v: Any) -> float | None:
    if isinstance(v, DeviceValue):
        v = v.gather()
    return None if is_char(v) else host_scalar(v)


class _Expansion:
    """The expansion state of a column of finite-clamped values."""

    def __init__(self, column: Any, keep_terms: bool):
        self.finite = call("double", call("isfinite", column))
        self.infinite = call("double", call("isinf", column))
        # NaN -> -realmax, +-Inf -> +-realmax (max/min skip NaN), then 0
        clamped = call("min", call("max", column, -_REALMAX), _REALMAX)
        self.sign_of_x = call("sign", clamped)
        self.x = op(".*", clamped, self.finite)
        self.n = call("round", self.x)
        self.d = call("ones", float(column.shape[0]), 1.0, _LIKE, column)
        self.lastn = self.d
        self.lastd = op(".*", self.d, 0.0)
        self.frac = op("-", self.x, self.n)
        self.terms = [self.n] if keep_terms else None
        self.count = self.finite
        _settle(self.finite, self.infinite, self.sign_of_x, self.x, self.n, self.d, self.lastd,
                self.frac)

    def default_tolerance(self, factor: float) -> Any:
        """``factor * norm(X(isfinite(X)), 1)`` on the device."""
        return op("*", factor, call("sum", call("abs", self.x)))

    def active(self, tol: Any) -> Any:
        gap = call("abs", op("-", self.x, op("./", self.n, self.d)))
        going = call("and", op(">=", gap, tol), op("~=", self.frac, 0.0))
        return op(".*", self.finite, call("double", going))

    def run(self, tol: Any) -> bool:
        """Expand until every element has converged (False: not within
        ``_MAX_ROUNDS``, which a double never needs; the caller then leaves
        the work to the host)."""
        for _ in range(_MAX_ROUNDS):
            mask = self.active(tol)
            if not bool(np.asarray(call("gather", call("any", mask))).reshape(-1)[0]):
                return True
            flip = op("./", 1.0, op("+", self.frac, op("-", 1.0, mask)))
            step = call("round", flip)
            self.frac = _select(mask, op("-", flip, step), self.frac)
            n_next = op("+", op(".*", self.n, step), self.lastn)
            d_next = op("+", op(".*", self.d, step), self.lastd)
            self.lastn = _select(mask, self.n, self.lastn)
            self.lastd = _select(mask, self.d, self.lastd)
            self.n = _select(mask, n_next, self.n)
            self.d = _select(mask, d_next, self.d)
            if self.terms is not None:
                self.terms.append(op(".*", step, mask))
                self.count = op("+", self.count, mask)
                _settle(self.terms[-1], self.count)
            _settle(self.frac, self.lastn, self.lastd, self.n, self.d)
        return False

    def fraction(self) -> tuple[Any, Any]:
        """(N, D) as columns: ``n * sign(d)`` and ``abs(d)``; ``sign(x)/0``
        for +-Inf, ``0/0`` for NaN (``sign_of_x`` is -1 for NaN: kept only
        where the input is infinite)."""
        whole = op(".*", self.finite, op(".*", self.n, call("sign", self.d)))
        numerator = op("+", whole, op(".*", self.infinite, self.sign_of_x))
        return numerator, op(".*", self.finite, call("abs", self.d))


def rat_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``[N, D] = rat(X)``, ``rat(X, tol)`` and the text ``S = rat(X)``."""
    if not 1 <= len(args) <= 2 or nargout > 2:
        return None
    column = _real_input(args[0])
    if column is None:
        return None
    tol = _host_value(args[1]) if len(args) == 2 else None
    if len(args) == 2 and tol is None:
        return None
    expansion = _Expansion(column, keep_terms=nargout < 2)
    if not expansion.run(expansion.default_tolerance(1e-6) if tol is None else tol):
        return None
    if nargout == 2:
        shape = [float(d) for d in args[0].shape]
        return [call("reshape", part, *shape) for part in expansion.fraction()]
    return [_terms_as_text(expansion)]


def _terms_as_text(expansion: _Expansion) -> Any:
    """rat's text: the terms, counts and kinds read back once, formatted by
    the host's ``continued_fraction_text``."""
    from matfuse.runtime.builtins.rational_factor import continued_fraction_text, text_rows

    # kind: the input's sign for +-Inf, NaN as NaN (its text needs no terms)
    kind = op("+", op(".*", expansion.infinite, expansion.sign_of_x),
              op("./", 0.0, op("+", expansion.finite, expansion.infinite)))
    table = np.asarray(call("gather", call("horzcat", kind, expansion.count, *expansion.terms)),
                       dtype=np.float64).reshape(-1, 2 + len(expansion.terms))
    rows = []
    for kind_k, count, *terms in table.tolist():
        if np.isnan(kind_k):
            rows.append(continued_fraction_text(float("nan"), []))
        elif kind_k != 0:
            rows.append(continued_fraction_text(kind_k * float("inf"), [int(kind_k)]))
        else:
            rows.append(continued_fraction_text(0.0, [int(t) for t in terms[:int(count)]]))
    return text_rows(rows)


def rats_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``rats(X)`` and ``rats(X, strlen)`` of a real matrix."""
    from matfuse.runtime.builtins.rational_text import rats_text

    if not 1 <= len(args) <= 2 or nargout > 1:
        return None
    x = args[0]
    column = _real_input(x)
    width = _host_value(args[1]) if len(args) == 2 else 13.0
    if column is None or width is None or not np.isfinite(width) or len(x.shape) != 2:
        return None
    width = int(width)
    expansion = _Expansion(column, keep_terms=False)
    tol = call("min", expansion.default_tolerance(10.0 ** (-(width - 1) / 2)), 0.1)
    if not expansion.run(tol):
        return None
    numerator, denominator = expansion.fraction()
    pairs = np.asarray(call("gather", call("horzcat", numerator, denominator)),
                       dtype=np.float64).reshape(-1, 2)
    return [rats_text([(float(n), float(d)) for n, d in pairs.tolist()], None,
                      tuple(x.shape), width)]


COMPOSED = {"rat": rat_on_device, "rats": rats_on_device}
