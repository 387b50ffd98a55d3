"""Calling a builtin: argument-count checks, device routing, error naming.

``call_builtin`` is the one entry point the VM uses. Device routing
(``gather_if_needed`` and the GPU specs) is owned by the accelerate work.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from matfuse.errors import MatlabError
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import DeviceValue


def gather_if_needed(args: list[Any]) -> list[Any]:
    """Host copies of any device values among ``args`` (others unchanged)."""
    return [a.gather() if isinstance(a, DeviceValue) else a for a in args]


class AutoOffloadHooks:
    """Entry points of the auto-offload planner (matfuse.accelerate.planner.
    offload). ``call(b, args, nargout, ctx)`` returns the outputs when it ran
    the builtin, else None; ``binary(op, a, b)`` returns NotImplemented to
    fall through. A hook set to None costs one check per
    call; the bootstrap hooks install the real ones (or None) on first use."""

    __slots__ = ("call", "binary")

    def __init__(self) -> None:
        self.call: Callable[..., Any] | None = _bootstrap_call
        self.binary: Callable[..., Any] | None = _bootstrap_binary


def _install_auto_offload() -> None:
    from matfuse.accelerate.planner.offload import install

    install()


def _bootstrap_call(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> Any:
    _install_auto_offload()
    hook = AUTO_OFFLOAD.call
    return hook(b, args, nargout, ctx) if hook is not None else None


def _bootstrap_binary(op: str, a: Any, b: Any) -> Any:
    _install_auto_offload()
    hook = AUTO_OFFLOAD.binary
    return hook(op, a, b) if hook is not None else NotImplemented


AUTO_OFFLOAD = AutoOffloadHooks()


@contextmanager
def auto_offload_suspended() -> Iterator[None]:
    """Auto-offload hooks off inside the block: for code that must compute
    on the host with the CPU semantics (the planner's own device calls,
    the host evaluation of a fused graph)."""
    saved = AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary
    AUTO_OFFLOAD.call = AUTO_OFFLOAD.binary = None
    try:
        yield
    finally:
        AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary = saved


def _check_counts(b: Builtin, nargs: int, nargout: int) -> None:
    if nargs < b.min_args:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    if b.max_args is not None and nargs > b.max_args:
        raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
    if b.max_out is not None and nargout > max(b.max_out, 1):
        raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")


def call_builtin(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> list[Any]:
    """Run builtin ``b`` and return its outputs as a list.

    The list has at least ``max(1, nargout)`` entries when the builtin
    produced that many; a builtin returning nothing gives ``[]``.
    """
    try:
        _check_counts(b, len(args), nargout)
    except MatlabError as err:
        err.function_name = b.name
        raise
    auto = AUTO_OFFLOAD.call
    if auto is not None:
        outputs = auto(b, args, nargout, ctx)
        if outputs is not None:
            return outputs
    if any(isinstance(a, DeviceValue) for a in args):
        from matfuse.accelerate.dispatch import call_with_device_args

        return call_with_device_args(b, args, nargout, ctx)
    return invoke(b, args, nargout, ctx)


def invoke(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> list[Any]:
    """Call ``b.impl`` with its calling convention; normalise the result."""
    try:
        if b.needs_ctx:
            if b.wants_nargout:
                result = b.impl(ctx, *args, nargout=nargout)
            else:
                result = b.impl(ctx, *args)
        elif b.wants_nargout:
            result = b.impl(*args, nargout=nargout)
        else:
            result = b.impl(*args)
    except MatlabError as err:
        if err.function_name is None:
            err.function_name = b.name
        raise
    if result is None:
        return []
    if type(result) is tuple:
        return list(result)
    return [result]
