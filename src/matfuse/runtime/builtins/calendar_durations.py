"""Calendar durations: ``calyears calquarters calmonths calweeks caldays``,
``calendarDuration(Y,M,D[,H,MI,S])``, ``iscalendarduration``."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.calendar_duration import CalendarDuration
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import class_of


def _integers(v: Any, name: str) -> np.ndarray:
    if type(v) is float or type(v) is bool:
        arr = np.array([[float(v)]])
    elif type(v) is np.ndarray and v.dtype.kind in "biuf":
        arr = v.astype(np.float64)
    else:
        raise MatlabError(f"MATLAB:{name}:InvalidInput",
                          f"Input must be numeric, not {class_of(v)}.")
    finite = arr[np.isfinite(arr)]
    if np.any(finite != np.round(finite)):
        raise MatlabError("MATLAB:calendarDuration:NonintegerCalendarValues",
                          "Calendar duration values must be integers.")
    return arr


@builtin("calyears", category="datetime", nargin=(1, 1))
def calyears(x: Any) -> CalendarDuration:
    """Calendar years (whole numbers) as a calendarDuration."""
    return CalendarDuration.from_parts(months=12 * _integers(x, "calyears"))


@builtin("calquarters", category="datetime", nargin=(1, 1))
def calquarters(x: Any) -> CalendarDuration:
    """Calendar quarters (three calendar months each) as a calendarDuration."""
    return CalendarDuration.from_parts(months=3 * _integers(x, "calquarters"))


@builtin("calmonths", category="datetime", nargin=(1, 1))
def calmonths(x: Any) -> CalendarDuration:
    """Calendar months as a calendarDuration."""
    return CalendarDuration.from_parts(months=_integers(x, "calmonths"))


@builtin("calweeks", category="datetime", nargin=(1, 1))
def calweeks(x: Any) -> CalendarDuration:
    """Calendar weeks (seven calendar days) as a calendarDuration."""
    return CalendarDuration.from_parts(days=7 * _integers(x, "calweeks"))


@builtin("caldays", category="datetime", nargin=(1, 1))
def caldays(x: Any) -> CalendarDuration:
    """Calendar days as a calendarDuration."""
    return CalendarDuration.from_parts(days=_integers(x, "caldays"))


@builtin("calendarDuration", category="datetime", nargin=(1, 6))
def calendar_duration(*args: Any) -> CalendarDuration:
    """``calendarDuration(Y,M,D)`` or ``calendarDuration(Y,M,D,H,MI,S)``
    (or one N-by-3 / N-by-6 matrix)."""
    parts = [_integers(a, "calendarDuration") if k < 3 else
             np.asarray(a, dtype=np.float64) for k, a in enumerate(args)]
    if len(parts) == 1:
        matrix = parts[0]
        if matrix.shape[1] not in (3, 6):
            raise MatlabError("MATLAB:calendarDuration:InvalidNumericData",
                              "Numeric input data must be a matrix with three or six columns, "
                              "or else three or six separate numeric arrays.")
        parts = [matrix[:, k:k + 1] for k in range(matrix.shape[1])]
    if len(parts) not in (3, 6):
        raise MatlabError("MATLAB:calendarDuration:InvalidNumericData",
                          "Numeric input data must be a matrix with three or six columns, or "
                          "else three or six separate numeric arrays.")
    ms = 0.0
    if len(parts) == 6:
        ms = parts[3] * 3_600_000 + parts[4] * 60_000 + parts[5] * 1000
    return CalendarDuration.from_parts(12 * parts[0] + parts[1], parts[2], ms)


@builtin("iscalendarduration", category="datetime", nargin=(1, 1))
def iscalendarduration(v: Any) -> bool:
    """True for a calendarDuration array."""
    return type(v) is CalendarDuration
