"""MATLAB values crossing between the client and worker processes.

Values travel pickled. Three kinds need care: a gpuArray is gathered to
host memory and arrives as a gpuArray on the receiver's own device (or as
the host array where the receiver has no device); a function handle travels
as its name or, for an anonymous function, its text and captured
workspace, and is rebuilt by the receiver's interpreter; an error travels as
its identifier, message and stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from matfuse.errors import MatlabError, StackFrame
from matfuse.runtime.values import CellArray, DeviceValue, FunctionHandle, StructArray


@dataclass
class GpuPayload:
    """A gathered gpuArray."""

    host: Any


@dataclass
class HandlePayload:
    """A function handle: ``name`` for ``@name``; ``text`` and ``captured``
    for an anonymous function."""

    name: str | None
    text: str | None
    captured: dict | None


@dataclass
class ErrorPayload:
    identifier: str
    message: str
    stack: list[tuple[str, str | None, int]]
    span: Any = None
    function_name: str | None = None


def encode(value: Any) -> Any:
    """A picklable stand-in for ``value`` (values without device data or
    handles are returned as they are)."""
    t = type(value)
    if t is float or t is bool or t is np.ndarray or t is complex:
        return value
    if isinstance(value, DeviceValue):
        return GpuPayload(value.gather())
    if t is FunctionHandle:
        if value.text is not None:
            captured = {k: encode(v) for k, v in (value.captured or {}).items()}
            return HandlePayload(None, value.text, captured)
        return HandlePayload(value.name, None, None)
    if t is CellArray:
        flat = value.data.reshape(-1, order="F")
        if any(_needs_encoding(v) for v in flat):
            data = np.empty(value.data.shape, dtype=object)
            out = data.reshape(-1, order="F")
            for k, v in enumerate(flat):
                out[k] = encode(v)
            return CellArray(data)
        return value
    if t is StructArray:
        flat = value.data.reshape(-1, order="F")
        if any(_needs_encoding(v) for e in flat for v in e.values()):
            data = np.empty(value.data.shape, dtype=object)
            out = data.reshape(-1, order="F")
            for k, e in enumerate(flat):
                out[k] = {f: encode(v) for f, v in e.items()}
            return StructArray(list(value.fields), data)
        return value
    if isinstance(value, MatlabError):
        return encode_error(value)
    return value


def _needs_encoding(v: Any) -> bool:
    return isinstance(v, (DeviceValue, FunctionHandle, CellArray, StructArray, MatlabError))


def decode(value: Any, interp: Any = None, scope: Any = None) -> Any:
    """The MATLAB value for an ``encode`` result, rebuilt in ``interp``."""
    t = type(value)
    if t is float or t is bool or t is np.ndarray or t is complex:
        return value
    if t is GpuPayload:
        return _upload(value.host)
    if t is HandlePayload:
        return _rebuild_handle(value, interp, scope)
    if t is ErrorPayload:
        return decode_error(value)
    if t is CellArray:
        flat = value.data.reshape(-1, order="F")
        if any(_is_payload(v) for v in flat):
            data = np.empty(value.data.shape, dtype=object)
            out = data.reshape(-1, order="F")
            for k, v in enumerate(flat):
                out[k] = decode(v, interp, scope)
            return CellArray(data)
        return value
    if t is StructArray:
        flat = value.data.reshape(-1, order="F")
        if any(_is_payload(v) for e in flat for v in e.values()):
            data = np.empty(value.data.shape, dtype=object)
            out = data.reshape(-1, order="F")
            for k, e in enumerate(flat):
                out[k] = {f: decode(v, interp, scope) for f, v in e.items()}
            return StructArray(list(value.fields), data)
        return value
    return value


def _is_payload(v: Any) -> bool:
    return isinstance(v, (GpuPayload, HandlePayload, ErrorPayload, CellArray, StructArray))


def _upload(host: Any) -> Any:
    """A gpuArray on this process's device; the host value when the
    acceleration layer cannot start here."""
    from matfuse.accelerate.facade import ensure_provider
    from matfuse.accelerate.gpuarray import upload_value

    return upload_value(host, ensure_provider())


def _rebuild_handle(p: HandlePayload, interp: Any, scope: Any) -> FunctionHandle:
    if p.text is None:
        return FunctionHandle(name=p.name, scope=scope)
    if interp is None:
        raise MatlabError("matfuse:parallel:handleTransfer",
                          "An anonymous function cannot be rebuilt without an interpreter.")
    from matfuse.vm.workspace import Frame

    fr = Frame(interp, "parallel", scope.file if scope is not None else None, scope)
    for k, v in (p.captured or {}).items():
        fr[k] = decode(v, interp, scope)
    prev = interp.frame
    interp.frame = fr
    try:
        return interp.eval_string(p.text, 1)[0]
    finally:
        interp.frame = prev


def encode_error(err: MatlabError) -> ErrorPayload:
    stack = [(s.name, s.file, s.line) for s in err.stack]
    return ErrorPayload(err.identifier, err.message, stack, err.span, err.function_name)


def decode_error(p: ErrorPayload) -> MatlabError:
    err = MatlabError(p.identifier, p.message)
    err.stack = [StackFrame(n, f, line) for n, f, line in p.stack]
    err.span = p.span
    err.function_name = p.function_name
    return err
