"""MATLAB warnings from graphics code, issued through the session's
``warning`` function (so ``warning off ID`` and ``lastwarn`` apply).

The builtin wrapper (``graphics_call``) records the calling context for
the duration of the call; outside one, warnings go to stderr."""

from __future__ import annotations

import contextlib
import contextvars
import sys
from typing import Any, Iterator

_CALLER: contextvars.ContextVar[Any] = contextvars.ContextVar("graphics_caller", default=None)


@contextlib.contextmanager
def caller(ctx: Any) -> Iterator[None]:
    token = _CALLER.set(ctx)
    try:
        yield
    finally:
        _CALLER.reset(token)


def warn(identifier: str, message: str) -> None:
    from matfuse.runtime.values import char_array

    ctx = _CALLER.get()
    if ctx is None:
        sys.stderr.write(f"Warning: {message}\n")
        return
    ctx.call("warning", [char_array(identifier), char_array("%s"), char_array(message)], 0)
