"""Calling a builtin: argument-count checks, device routing, error naming.

``call_builtin`` is the one entry point the VM uses. A call with a device
argument goes to the device router (``runtime.device_router``); the
auto-offload hooks (``AUTO_OFFLOAD``) let the planner move large host
operands to the device first.
"""

from __future__ import annotations

from typing import Any, Callable, Container

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.device_router import device_router
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
    call; the bootstrap hooks install the real ones (or None) on first use.

    ``min_array`` and ``watched`` say when a hook can act at all: on a
    device operand, a host array of at least ``min_array`` elements, or a
    builtin named in ``watched``. Callers skip the hook otherwise, so host
    work on scalars and small arrays pays one test, not a call. The
    bootstrap values send every call to the hooks (they must install)."""

    __slots__ = ("call", "binary", "min_array", "watched")

    def __init__(self) -> None:
        self.call: Callable[..., Any] | None = _bootstrap_call
        self.binary: Callable[..., Any] | None = _bootstrap_binary
        self.min_array: int = 0
        self.watched: Container[str] = _EVERY_NAME


class _EveryName:
    """``watched`` of the bootstrap hooks: every builtin name."""

    def __contains__(self, name: object) -> bool:
        return True


_EVERY_NAME = _EveryName()


_offload_installer: Callable[[], None] | None = None


def set_offload_installer(installer: Callable[[], None]) -> None:
    """``installer()`` sets the auto-offload hooks from the options without
    loading the device router (registered by the top-level package; the
    router loads with the first device operation)."""
    global _offload_installer
    _offload_installer = installer


def _install_auto_offload() -> None:
    if _offload_installer is not None:
        _offload_installer()
    else:
        device_router().install_auto_offload()


def _bootstrap_call(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> Any:
    _install_auto_offload()
    hook = AUTO_OFFLOAD.call
    return hook(b, args, nargout, ctx) if hook is not None else None


def _bootstrap_binary(op: str, a: Any, b: Any) -> Any:
    _install_auto_offload()
    hook = AUTO_OFFLOAD.binary
    return hook(op, a, b) if hook is not None else NotImplemented


AUTO_OFFLOAD = AutoOffloadHooks()


class auto_offload_suspended:  # noqa: N801 - used as a function: ``with auto_offload_suspended():``
    """Auto-offload hooks off inside the block: for code that must compute
    on the host with the CPU semantics (the planner's own device calls,
    the host evaluation of a fused graph). A class, not @contextmanager:
    the planner enters it once per offloaded operation."""

    __slots__ = ("_saved",)

    def __enter__(self) -> None:
        self._saved = AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary
        AUTO_OFFLOAD.call = AUTO_OFFLOAD.binary = None

    def __exit__(self, *exc: object) -> None:
        AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary = self._saved


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
    nargs = len(args)
    # The common in-range case is tested inline; _check_counts names the error.
    if nargs < b.min_args or (b.max_args is not None and nargs > b.max_args) or (
            b.max_out is not None and nargout > b.max_out and nargout > 1):
        try:
            _check_counts(b, nargs, nargout)
        except MatlabError as err:
            err.function_name = b.name
            raise
    auto = AUTO_OFFLOAD.call
    if auto is not None and _in_reach(b, args):
        outputs = auto(b, args, nargout, ctx)
        if outputs is not None:
            return outputs
    for a in args:
        if isinstance(a, DeviceValue):
            return device_router().call_builtin(b, args, nargout, ctx)
    return invoke(b, args, nargout, ctx)


def _in_reach(b: Builtin, args: list[Any]) -> bool:
    """Whether the offload hook can act on this call (``AutoOffloadHooks``):
    a watched builtin, a device argument or a large enough host array."""
    if b.name in AUTO_OFFLOAD.watched:
        return True
    limit = AUTO_OFFLOAD.min_array
    for a in args:
        t = type(a)
        if t is float:
            continue
        if t is np.ndarray:
            if a.size >= limit:
                return True
        elif isinstance(a, DeviceValue):
            return True
    return False


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
