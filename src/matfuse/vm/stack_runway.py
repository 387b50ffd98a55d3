"""Run the interpreter on a stack runway: Python frame memory that MATLAB
calls do not have to allocate and free as they go deeper and come back.

CPython (3.11 on) keeps the frames of Python functions in chunks of 16 KiB,
allocated with ``mmap`` when a call does not fit in the current chunk and
freed with ``munmap`` as soon as the call that opened the chunk returns
(python/cpython#142183). Every MATLAB call is several Python frames (the
call site, the function's statements, their expressions), so a MATLAB
program whose calls go up and down across such a boundary - a recursive
function, or a loop calling a function at the wrong depth - pays a system
call pair on each crossing: recursive ``fib`` ran at about half speed, and
how much it lost changed with the depth the program started at.

``run_on_runway(fn, *args)`` calls ``fn`` from a trampoline whose code
declares a large evaluation stack. Its frame, too large for the current
chunk, opens a chunk of twice its size; everything ``fn`` calls is placed
in the unused second half of that chunk, about 1 MiB (several hundred
MATLAB call levels, more than the recursion limit allows in most programs),
with no allocation on the way. The declared stack is never written: only
the pages the calls really use are touched. Deeper calls continue in
ordinary chunks. Other Python implementations call ``fn`` directly.
"""

from __future__ import annotations

import sys
import types
from typing import Any, Callable

#: Evaluation-stack slots the trampoline declares (8 bytes each): its frame
#: is a little over 1 MiB, so its chunk is 2 MiB and about 1 MiB is left
#: for the calls made from it.
RUNWAY_SLOTS = 135_000


def _trampoline(fn: Callable[..., Any], args: tuple) -> Any:
    return fn(*args)


def _make_runway() -> Callable[[Callable[..., Any], tuple], Any]:
    if sys.implementation.name != "cpython" or sys.version_info < (3, 11):
        return _trampoline
    code = _trampoline.__code__.replace(co_stacksize=RUNWAY_SLOTS)
    return types.FunctionType(code, _trampoline.__globals__, "run_on_runway")


_runway = _make_runway()


def run_on_runway(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, with the Python frames of what it calls placed in
    one preallocated stack chunk (see the module docstring)."""
    return _runway(fn, args)
