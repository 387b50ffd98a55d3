"""Time and environment: tic toc pause clock now date datestr datenum datevec
etime cputime getenv setenv pwd cd."""

from __future__ import annotations

import datetime as _dt
import math
import os
import sys
import time
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, scalar_value, text_arg
from matfuse.runtime.builtins._math_support import double_values
from matfuse.runtime.registry import builtin
from matfuse.runtime.builtins._datetime_text import (
    datenum_from_datetime,
    datetime_from_datenum,
    format_datestr,
    serial_day_from_civil,
)
from matfuse.runtime.values import canonical, char_array, char_rows, to_array, to_str

_TIC_START: list[float] = []   # the global tic, when one was taken


@builtin("tic", category="environment", nargin=(0, 0), nargout=(0, 1), wants_nargout=True)
def tic(nargout: int = 0) -> Any:
    """Start a stopwatch; ``t = tic`` returns an id (microseconds, uint64)."""
    now = time.perf_counter()
    if nargout:
        return np.array([[int(now * 1e6)]], dtype=np.uint64)
    _TIC_START[:] = [now]
    return None


@builtin("toc", category="environment", nargin=(0, 1), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def toc(ctx: Any, t: Any = None, nargout: int = 0) -> Any:
    """Elapsed seconds since tic (or since ``t = tic``); prints when nargout is 0."""
    now = time.perf_counter()
    if t is not None:
        arr = to_array(t)
        if arr.dtype != np.uint64 or arr.size != 1:
            raise MatlabError("MATLAB:toc:invalidInput",
                              "Input argument must be a uint64 value returned by TIC.")
        elapsed = now - int(arr.reshape(-1)[0]) / 1e6
    elif _TIC_START:
        elapsed = now - _TIC_START[0]
    else:
        raise MatlabError("MATLAB:toc:callTicFirst",
                          "You must call TIC without an output argument before calling TOC without an input argument.")
    if nargout:
        return float(elapsed)
    ctx.write(f"Elapsed time is {elapsed:.6f} seconds.\n")
    return None


@builtin("pause", category="environment", nargin=(0, 1), nargout=(0, 1))
def pause(n: Any = None) -> Any:
    """Wait ``n`` seconds; ``pause`` alone waits for a key only on a terminal."""
    if n is None:
        if sys.stdin is not None and sys.stdin.isatty():
            sys.stdin.readline()
        return None
    if is_text(n):
        word = to_str(n).lower()
        if word in ("on", "off"):
            return None
        if word == "query":
            return char_array("on")
        raise MatlabError("MATLAB:pause:InvalidInput", "Input must be a number, 'on', 'off' or 'query'.")
    seconds = scalar_value(n, "pause")
    if np.isnan(seconds) or seconds < 0:
        raise MatlabError("MATLAB:pause:InvalidInput",
                          "Argument must be a non-negative real scalar.")
    if np.isfinite(seconds) and seconds > 0:
        time.sleep(seconds)
    return None


def _now() -> _dt.datetime:
    return _dt.datetime.now()


@builtin("clock", category="environment", nargin=(0, 0))
def clock() -> Any:
    """Current date and time as [year month day hour minute seconds]."""
    t = _now()
    seconds = t.second + t.microsecond / 1e6
    return np.array([[t.year, t.month, t.day, t.hour, t.minute, seconds]], dtype=np.float64)


@builtin("now", category="environment", nargin=(0, 0))
def now() -> Any:
    """Current date and time as a serial date number."""
    return datenum_from_datetime(_now())


@builtin("date", category="environment", nargin=(0, 0))
def date() -> Any:
    """Current date as 'dd-mmm-yyyy'."""
    return char_array(format_datestr(datenum_from_datetime(_now()), "dd-mmm-yyyy"))


@builtin("datestr", category="environment", nargin=(1, 3))
def datestr(d: Any, fmt: Any = None, *_: Any) -> Any:
    """Date text of serial date numbers or date vectors (common formats)."""
    arr = double_values(d, "datestr")
    if arr.ndim == 2 and arr.shape[1] in (3, 6) and arr.size and np.all(arr[:, 0] > 31) \
            and np.all((arr[:, 1] >= 1) & (arr[:, 1] <= 12)):
        nums = [datenum_from_vector(row) for row in arr]
    else:
        nums = list(arr.reshape(-1, order="F"))
    if fmt is None:
        all_midnight = all(n == np.floor(n) for n in nums)
        pattern: Any = 1 if all_midnight else 0
    elif is_text(fmt):
        pattern = to_str(fmt)
    else:
        number = scalar_value(fmt, "datestr")
        # Not an integer: no numbered format, the same error as an unknown number.
        pattern = int(number) if number == np.floor(number) and abs(number) < 1e9 else -1
    lines = [format_datestr(n, pattern) for n in nums]
    return char_rows(lines) if len(lines) != 1 else char_array(lines[0])


def datenum_from_vector(row: Any) -> float:
    """Serial date number of [y m d h mi s] (months and days may overflow)."""
    vals = [float(v) for v in row] + [0.0] * (6 - len(row))
    year, month, day, hour, minute, sec = vals
    if not (math.isfinite(year) and math.isfinite(month)):
        return math.nan if math.isnan(year) or math.isnan(month) else year * month * 365.2425
    year += math.floor((month - 1) / 12)
    month = (month - 1) % 12 + 1
    if abs(year) > 2 ** 53:
        return year * 365.2425     # beyond exact years: the mean Gregorian year
    base = serial_day_from_civil(int(year), int(month), 1)
    return base + (day - 1) + (hour * 3600 + minute * 60 + sec) / 86400.0


_TEXT_FORMATS = ("%d-%b-%Y %H:%M:%S", "%d-%b-%Y", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d",
                 "%m/%d/%Y", "%m/%d/%y", "%Y/%m/%d", "%H:%M:%S", "%d-%b-%Y %H:%M")


def _parse_date_text(text: str) -> float:
    for fmt in _TEXT_FORMATS:
        try:
            parsed = _dt.datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
        if fmt == "%H:%M:%S":   # time only: MATLAB uses January 1 of this year
            parsed = parsed.replace(year=_now().year, month=1, day=1)
        return datenum_from_datetime(parsed)
    raise MatlabError("MATLAB:datenum:ConvertDateString",
                      f"DATENUM failed. The input '{text}' is not a recognized date format.")


def _real_date_part(value: Any) -> np.ndarray:
    """A datenum argument as real doubles; complex dates have no meaning."""
    arr = to_array(value)
    if arr.dtype.kind == "c":
        raise MatlabError("MATLAB:datenum:ComplexInput", "Date inputs must be real.")
    if arr.dtype.kind not in "biuf":
        raise MatlabError("MATLAB:datenum:InvalidInput",
                          "Date inputs must be numeric (or one date text).")
    return arr.astype(np.float64)


@builtin("datenum", category="environment", nargin=(1, 6))
def datenum(*args: Any) -> Any:
    """Serial date number: datenum(Y,M,D[,H,MI,S]), datenum(datevec), datenum(text)."""
    if len(args) == 1 and is_text(args[0]):
        return _parse_date_text(to_str(args[0]))
    if len(args) == 1:
        arr = _real_date_part(args[0])
        if arr.ndim == 2 and arr.shape[1] in (3, 6) and arr.size:
            nums = np.array([datenum_from_vector(r) for r in arr]).reshape(-1, 1)
            return canonical(nums)
        return canonical(arr)
    if len(args) == 2 and is_text(args[0]):
        return _parse_date_text(to_str(args[0]))
    values = [_real_date_part(a) for a in args]
    sizes = {v.shape for v in values if v.size != 1}
    if len(sizes) > 1:
        raise MatlabError("MATLAB:datenum:InputSizeMismatch",
                          "Date components must be scalars or arrays of the same size.")
    parts = np.broadcast_arrays(*values)
    flat = [p.reshape(-1, order="F") for p in parts]
    nums = np.array([datenum_from_vector([f[i] for f in flat]) for i in range(flat[0].size)])
    return canonical(nums.reshape(parts[0].shape, order="F"))


@builtin("datevec", category="environment", nargin=(1, 2))
def datevec(d: Any, *_: Any) -> Any:
    """Date vectors [y m d h mi s] of date numbers or date text."""
    if is_text(d):
        nums = [_parse_date_text(to_str(d))]
    else:
        nums = list(double_values(d, "datevec").reshape(-1, order="F"))
    rows = []
    for n in nums:
        day, ms = datetime_from_datenum(n)
        rows.append([day.year, day.month, day.day, ms // 3600000, (ms // 60000) % 60,
                     (ms % 60000) / 1000.0])
    return canonical(np.array(rows, dtype=np.float64).reshape(len(rows), 6))


@builtin("etime", category="environment", nargin=(2, 2))
def etime(t1: Any, t0: Any) -> Any:
    """Seconds between two clock vectors: etime(t1, t0)."""
    a = double_values(t1, "etime").reshape(-1)
    b = double_values(t0, "etime").reshape(-1)
    if a.size != 6 or b.size != 6:
        raise MatlabError("MATLAB:etime:InvalidInput", "Inputs must be 6-element date vectors.")
    return float((datenum_from_vector(a) - datenum_from_vector(b)) * 86400.0)


@builtin("cputime", category="environment", nargin=(0, 0))
def cputime() -> Any:
    """CPU time used by this process, in seconds."""
    return float(time.process_time())


@builtin("getenv", category="environment", nargin=(1, 1))
def getenv(name: Any) -> Any:
    """Value of an environment variable ('' when unset)."""
    key = text_arg(name, "getenv", "name")
    return char_array(os.environ.get(key, ""))


@builtin("setenv", category="environment", nargin=(1, 2), nargout=(0, 0))
def setenv(name: Any, value: Any = None) -> Any:
    """Set (or, with an empty value, set to empty) an environment variable."""
    key = text_arg(name, "setenv", "name")
    if not key or "=" in key:
        raise MatlabError("MATLAB:setenv:InvalidName", "Environment variable name must be nonempty and cannot contain '='.")
    text = "" if value is None else text_arg(value, "setenv", "value")
    os.environ[key] = text
    return None


@builtin("pwd", category="environment", nargin=(0, 0))
def pwd() -> Any:
    """Current folder."""
    return char_array(os.getcwd())


@builtin("cd", category="environment", nargin=(0, 1), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def cd(ctx: Any, folder: Any = None, nargout: int = 0) -> Any:
    """Change the current folder (the process cwd); returns the old one."""
    old = os.getcwd()
    if folder is None:
        if nargout:
            return char_array(old)
        ctx.write(f"{old}\n")
        return None
    target = os.path.expanduser(text_arg(folder, "cd", "folder"))
    if not os.path.isdir(target):
        raise MatlabError("MATLAB:cd:NonExistentFolder",
                          f"Unable to change current folder to '{target}' (Name is nonexistent or not a folder).")
    os.chdir(target)
    interp = getattr(ctx, "interp", None)
    if interp is not None and hasattr(interp, "invalidate"):
        interp.invalidate()   # functions resolve against the new folder
    return char_array(old) if nargout else None
