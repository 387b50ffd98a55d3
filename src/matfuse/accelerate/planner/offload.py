"""Auto-offload: the entry points the runtime calls (via
``matfuse.runtime.dispatcher.AUTO_OFFLOAD``).

Modes: ``off`` (hooks are None: one check per builtin call / operator),
``pending`` (auto mode before a provider exists: only a large host array
starts the provider; if it is not a real GPU, auto-offload turns off) and
``active`` (the planner decides every call that involves a large host array
or an auto-offloaded value, and large ``zeros/ones/rand/randn/linspace``
calls: ``construction.py``). Each decision gets the call's fusion context
(``fusion_context.lazy_group_size``: the lazy group it would join) and
whether an operand is materialised on the device or pending there.

Values this module puts on the device are *hidden* (``values.AUTO_OFFLOADED``):
``class``, ``isa``, ``isgpuarray`` and display see the host value. Host-only
and sink builtins receive them gathered, so results are host values again.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from matfuse.accelerate.planner.construction import (
    CONSTRUCTORS,
    SEEDING,
    construction_request,
    create_on_device,
    note_builtin,
)
from matfuse.accelerate.planner.decisions import DEVICE, Decision, Planner
from matfuse.accelerate.planner.fusion_context import hidden_operands, lazy_group_size
from matfuse.accelerate.planner.thresholds import CATEGORY_OF_KIND, resolve_thresholds
from matfuse.accelerate_api import AccelProvider
from matfuse.runtime.dispatcher import (
    AUTO_OFFLOAD,
    AutoOffloadHooks,
    auto_offload_suspended,
    invoke,
)
from matfuse.runtime.device_router import device_router
from matfuse.runtime.registry import Builtin
from matfuse.runtime.values import (
    AUTO_OFFLOADED,
    CHAR_DTYPE,
    DeviceValue,
    hide_device_value,
    shape_of,
)

OFF, PENDING, ACTIVE = "off", "pending", "active"

# Builtins that only read class/shape (answered from the hidden value itself).
_QUERY_BUILTINS = frozenset({"class", "isa", "size", "numel", "ndims", "length", "isempty",
                             "isscalar", "isvector", "isrow", "iscolumn", "ismatrix",
                             "isnumeric", "isfloat", "islogical", "isreal", "isinteger"})
_ELEMENTWISE_OPS = frozenset({"+", "-", ".*", "./", ".\\", ".^", "==", "~=", "<", "<=",
                              ">", ">=", "&", "|"})


class _State:
    mode: str = OFF
    planner: Planner | None = None
    provider: AccelProvider | None = None
    min_array: int = 1 << 62
    explain: bool = False
    note: str = ""
    #: the options ``install`` was given (used when a pending mode starts the provider)
    options: Any = None

    def __init__(self) -> None:
        # (line, source text, operation, reason) of every host fallback of
        # device data while explaining.
        self.fallback_lines: list[tuple[int, str, str, str]] = []


STATE = _State()


# ------------------------------------------------------------------ installing
def install(options: Any) -> str:
    """Choose the mode from ``options`` (the facade's, passed by the router's
    entry) and the active provider; install the matching hooks. Returns the
    mode."""
    from matfuse.accelerate.facade import acceleration_state
    from matfuse.accelerate_api import provider as active_provider

    STATE.options = options
    setting = options.auto_offload
    if setting is False or (setting is True and options.provider == "inprocess"):
        return _set_mode(OFF, "disabled by options")
    existing = active_provider()
    if existing is not None or setting == "force":
        if existing is None:
            from matfuse.accelerate.facade import initialize_acceleration_provider

            existing = initialize_acceleration_provider(
                options if acceleration_state() is None else None)
        return _start(existing, options, forced=setting == "force")
    STATE.min_array = resolve_thresholds(options).smallest_array()
    return _set_mode(PENDING, "waiting for a large array")


def activate(p: AccelProvider, planner: Planner | None = None, options: Any = None) -> Planner:
    """Turn auto-offload on with provider ``p`` whatever its kind (tests,
    benchmarks); ``planner`` defaults to thresholds from ``options``."""
    device_router()     # device work follows: the router (and its fusion options) loaded
    if planner is None:
        planner = _make_planner(p, options)
    if planner.fusion_context is None:
        planner.set_fusion_context(lazy_group_size)
    STATE.planner = planner
    STATE.provider = p
    STATE.min_array = planner.thresholds.smallest_array()
    _route().use_cost_model(planner.cost_model)
    if STATE.explain:
        _enable_lines(planner)
    _set_mode(ACTIVE, f"active on {p.name}")
    return planner


def deactivate() -> None:
    """Turn auto-offload off for this process (hooks None)."""
    _set_mode(OFF, "turned off")


def reset() -> None:
    """Forget everything: the next builtin call installs again (tests)."""
    fresh = AutoOffloadHooks()
    AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary = fresh.call, fresh.binary
    STATE.mode, STATE.planner, STATE.provider, STATE.note = OFF, None, None, ""
    STATE.options = None
    STATE.min_array = 1 << 62
    AUTO_OFFLOAD.min_array, AUTO_OFFLOAD.watched = fresh.min_array, fresh.watched
    if _route_module is not None:
        _route_module.use_cost_model(None)
    SEEDING.seeded = False


def current_planner() -> Planner | None:
    return STATE.planner


def _set_mode(mode: str, note: str) -> str:
    STATE.mode, STATE.note = mode, note
    if mode == ACTIVE:
        AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary = offload_call, offload_binary
    elif mode == PENDING:
        AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary = _pending_call, _pending_binary
    else:
        AUTO_OFFLOAD.call, AUTO_OFFLOAD.binary = None, None
    _set_reach()
    return mode


# Builtins the hooks act on whatever their arguments: constructions (placed
# by size) and rng (noted: seeded programs keep the host random stream).
_WATCHED = frozenset(CONSTRUCTORS) | {"rng"}


def _set_reach() -> None:
    """Tell the runtime which calls the installed hooks can act on (see
    ``AutoOffloadHooks``): device operands, host arrays of at least
    ``STATE.min_array`` elements and the watched builtins; every host array
    while explaining (each decision is recorded)."""
    if STATE.mode == OFF:
        AUTO_OFFLOAD.min_array = 1 << 62
    else:
        AUTO_OFFLOAD.min_array = 0 if STATE.explain else STATE.min_array
    AUTO_OFFLOAD.watched = _WATCHED


def is_real_gpu(p: AccelProvider) -> bool:
    """Whether ``p`` computes on a GPU (CUDA, a hardware wgpu adapter; not
    the in-process provider or lavapipe): its declared capabilities."""
    return p.capabilities.hardware_gpu


def _start(p: AccelProvider, options: Any, forced: bool) -> str:
    if not forced and not is_real_gpu(p):
        return _set_mode(OFF, f"provider {p.name} is not a GPU")
    activate(p, options=options)
    return STATE.mode


def _make_planner(p: AccelProvider, options: Any) -> Planner:
    from matfuse.accelerate.planner.calibrate import calibration_for

    calibration = calibration_for(p, run_if_missing=options.calibrate)
    thresholds = resolve_thresholds(options, calibration.thresholds if calibration else None)
    planner = Planner(thresholds, calibration.cost_model if calibration else None)
    return planner


# ------------------------------------------------------------------ pending
def _large_host_array(args: Any, limit: int) -> bool:
    for a in args:
        if type(a) is np.ndarray and a.size >= limit:
            return True
    return False


def _pending_call(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> Any:
    if b.name == "rng":
        note_builtin(b.name)
    if _large_host_array(args, STATE.min_array) or (
            b.name in CONSTRUCTORS and construction_request(b.name, args)[0] >= STATE.min_array):
        if _leave_pending():
            return offload_call(b, args, nargout, ctx)
    return None


def _pending_binary(op: str, a: Any, b: Any) -> Any:
    if _large_host_array((a, b), STATE.min_array) and _leave_pending():
        return offload_binary(op, a, b)
    return NotImplemented


def _leave_pending() -> bool:
    """A large array appeared: start the provider; True when now active."""
    from matfuse.accelerate.facade import ensure_provider, gpu_hardware_present
    from matfuse.accelerate_api import provider as active_provider

    if active_provider() is None and not gpu_hardware_present():
        # Probing adapters costs seconds (lavapipe); without GPU device
        # nodes the probe can only end on the CPU.
        _set_mode(OFF, "no GPU device found")
        return False
    return _start(ensure_provider(), STATE.options, forced=False) == ACTIVE


# Hooks off while the device path runs: its host fallbacks call back into
# the dispatcher and operators, which must not be planned again.
_suspended = auto_offload_suspended
_route_module: Any = None


def _route() -> Any:
    """``matfuse.accelerate.router.route`` (imported on first use: it imports
    the fusion engine, which this module must not load at import time)."""
    global _route_module
    if _route_module is None:
        from matfuse.accelerate.router import route

        _route_module = route
    return _route_module


# ------------------------------------------------------------------ active: builtins
def _scan(args: Any) -> tuple[bool, bool, int, int]:
    """(any hidden device value, any user-visible one, largest host array, host bytes)."""
    hidden = visible = False
    big = nbytes = 0
    for a in args:
        if type(a) is np.ndarray:
            if a.size > big:
                big = a.size
            nbytes += a.nbytes
        elif isinstance(a, DeviceValue):
            if a in AUTO_OFFLOADED:
                hidden = True
            else:
                visible = True
    return hidden, visible, big, nbytes


def _gathered(args: list[Any]) -> list[Any]:
    return [a.gather() if isinstance(a, DeviceValue) else a for a in args]


def offload_call(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """The dispatcher hook: outputs when this module ran ``b``, else None."""
    # Fast exit for the common case (scalars, small arrays): one pass, no allocation.
    limit = STATE.min_array
    for a in args:
        t = type(a)
        if t is float:
            continue
        if t is np.ndarray:
            if a.size >= limit:
                break
        elif isinstance(a, DeviceValue):
            if a not in AUTO_OFFLOADED:
                # A user-visible gpuArray: explicit gpuArray semantics, the
                # normal device routing (what the full scan below concludes).
                return None
            break
    else:
        # No device value, no large host array: only constructions and rng matter.
        name = b.name
        if name in CONSTRUCTORS:
            return _construct(b, args, nargout, ctx)
        if name == "rng":
            note_builtin(name)
            return None
        if not STATE.explain:
            return None
    hidden, visible, big, nbytes = _scan(args)
    if visible:
        return None  # explicit gpuArray semantics: the normal device routing
    name = b.name
    if not hidden:
        if name == "rng":
            note_builtin(name)
            return None
        if name in CONSTRUCTORS:
            return _construct(b, args, nargout, ctx)
        if big < STATE.min_array and not (STATE.explain and big > 1):
            return None
    spec = b.gpu
    if hidden and (name in _QUERY_BUILTINS):
        return None  # class_of and the stand-ins answer as for the host value
    category = CATEGORY_OF_KIND.get(spec.kind) if spec is not None else None
    planner = STATE.planner
    if hidden and category in ("elementwise", "reduction") and not b.sink and not STATE.explain:
        reason = _kept_on_device("+", args[0], 0.0, type(args[0]), float)
        if reason is not None and all(type(a) is not np.ndarray or a.size < STATE.min_array
                                      for a in args[1:]):
            # Data already on the device, options on the host: the residency
            # or fusion rule (no cost model; counted the same).
            planner.log.counts[(DEVICE, reason)] += 1
            with _suspended():
                outputs = _route().call_with_device_args(b, list(args), nargout, ctx)
            for value in outputs:
                hide_device_value(value)
            return outputs
    if hidden and name == "gpuArray":
        # gpuArray(x) of a value already on the device: a visible alias, no round trip.
        with _suspended():
            return invoke(b, [_visible_copy(a) if a in AUTO_OFFLOADED else a for a in args],
                          nargout, ctx)
    if category is None or b.sink:
        if not hidden:
            return None
        planner.decide(name, category, max(big, _device_numel(args)), sink=b.sink)
        return invoke(b, _gathered(args), nargout, ctx)
    if category == "matmul" and len(args) >= 2:
        work = _matmul_flops(args[0], args[1])
    else:  # the data's size (option arguments such as dims are small host arrays)
        work = max(big, _device_numel(args))
    resident, pending = hidden_operands(args) if hidden else (False, 0)
    data = {"elementwise": len(args), "matmul": 2}.get(category, 1)
    decision = planner.decide(name, category, work, upload_bytes=nbytes, resident=resident,
                              operands=args, pending_bytes=pending,
                              reread=_reread(args[:1] if name in _ONE_DATA_ARGUMENT else args[:data]))
    if not decision.on_device:
        return invoke(b, _gathered(args), nargout, ctx) if hidden else None
    from matfuse.accelerate.router.route import call_with_device_args

    promoted = _promote_args(args, category, name)
    with _suspended():
        outputs = call_with_device_args(b, promoted, nargout, ctx)
    for value in outputs:
        hide_device_value(value)
    return outputs


def _visible_copy(v: Any) -> Any:
    """A user-visible gpuArray holding the value of the hidden device value
    ``v`` (``v`` itself stays hidden: a host variable may still hold it):
    a lazy ``uplus`` where the provider fuses, else a device copy."""
    from matfuse.accelerate.fusion.executor import fusion_enabled
    from matfuse.accelerate.gpuarray import wrap_handle
    from matfuse.accelerate.router import fused

    p = v.provider
    if v.matlab_class not in ("logical", "char") and fusion_enabled(p):
        lazy = fused.unary(p, "uplus", v)
        if lazy is not None:
            return lazy
    return wrap_handle(p.reshape(v.valid_handle(), tuple(v.shape)), v.matlab_class, p)


def _reread(operands: Any) -> bool:
    """Whether a host array operand is read again by device work (see
    ``residency.HostArrayResidency.reread``); every operand is counted."""
    from matfuse.accelerate.residency import HOST_RESIDENCY

    found = False
    for a in operands:
        if type(a) is np.ndarray and _is_device_data(a) and HOST_RESIDENCY.reread(a, STATE.provider):
            found = True
    return found


def _device_numel(args: Any) -> int:
    return max((_numel(a) for a in args if isinstance(a, DeviceValue)), default=0)


def _numel(v: Any) -> int:
    return int(math.prod(shape_of(v)))


def _matmul_flops(a: Any, b: Any) -> int:
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != 2 or len(sb) != 2:
        return 0
    return int(sa[0]) * int(sa[1]) * int(sb[1])


def _is_device_data(v: Any) -> bool:
    return type(v) is np.ndarray and v.dtype != CHAR_DTYPE and v.dtype.kind in "biufc" \
        and v.size > 0


def _promote(v: Any) -> Any:
    """A host operand on the device (hidden); an unchanged host array that
    was promoted before keeps its device copy (``residency``)."""
    from matfuse.accelerate.residency import HOST_RESIDENCY

    return hide_device_value(HOST_RESIDENCY.device_copy(v, STATE.provider)) \
        if _is_device_data(v) else v


# Rearrangements (planned in the elementwise category) whose arguments after
# the first are sizes, orders or shifts, never data to upload.
_ONE_DATA_ARGUMENT = frozenset({"transpose", "ctranspose", "repmat", "find", "reshape", "permute",
                                "ipermute", "squeeze", "circshift", "flip", "fliplr", "flipud",
                                "rot90"})


def _promote_args(args: list[Any], category: str, name: str = "") -> list[Any]:
    # Elementwise ops take data in every position; reductions/scans and
    # rearrangements take options (dims, sizes, flags) after the data;
    # matmul takes two operands.
    data_positions = {"elementwise": len(args), "matmul": 2}.get(category, 1)
    if name in _ONE_DATA_ARGUMENT:
        data_positions = 1
    return [_promote(a) if i < data_positions else a for i, a in enumerate(args)]


# ------------------------------------------------------------------ active: operators
def _operator_category(op: str, a: Any, b: Any) -> str | None:
    if op in _ELEMENTWISE_OPS:
        return "elementwise"
    scalar_a, scalar_b = _numel(a) == 1, _numel(b) == 1
    if op == "*":
        return "elementwise" if scalar_a or scalar_b else "matmul"
    if (op == "/" and scalar_b) or (op == "\\" and scalar_a) or (op == "^" and scalar_a and scalar_b):
        return "elementwise"
    return None


def _host_operand_ok(v: Any) -> bool:
    t = type(v)
    return t is float or t is bool or t is complex or isinstance(v, DeviceValue) or \
        (t is np.ndarray and v.dtype != CHAR_DTYPE and v.dtype.kind in "biufc")


def _kept_on_device(op: str, a: Any, b: Any, ta: type, tb: type) -> str | None:
    """The rule's answer, without the cost model, for the common case of an
    elementwise op between auto-offloaded device values and host scalars:
    a materialised operand is resident; a lazy one (big enough) joins its
    fused group. None: ask the planner."""
    hidden_a = ta is not float and isinstance(a, DeviceValue) and a in AUTO_OFFLOADED
    hidden_b = tb is not float and isinstance(b, DeviceValue) and b in AUTO_OFFLOADED
    return _device_rule(op, a, b, ta, tb, hidden_a, hidden_b)


def _device_rule(op: str, a: Any, b: Any, ta: type, tb: type, hidden_a: bool,
                 hidden_b: bool) -> str | None:
    """``_kept_on_device`` once the operands' hidden flags are known."""
    if not ((hidden_a and (hidden_b or tb is float)) or (hidden_b and ta is float)):
        return None
    if op not in _ELEMENTWISE_OPS and not (op in ("*", "/") and (ta is float or tb is float)):
        return None
    # A materialised operand is resident (whatever the other); else the
    # largest lazy operand decides. Unrolled: this runs once per operation.
    if hidden_a and not a.is_lazy:
        return "resident"
    if hidden_b and not b.is_lazy:
        return "resident"
    biggest = math.prod(a.shape) if hidden_a else 0
    if hidden_b:
        biggest = max(biggest, math.prod(b.shape))
    if biggest >= STATE.planner.thresholds.get("elementwise"):
        return "fusion"
    return None


def offload_binary(op: str, a: Any, b: Any) -> Any:
    """The ``ops.binary`` hook: the result, or NotImplemented to fall through."""
    ta, tb = type(a), type(b)
    if not STATE.explain and (ta is float or (ta is np.ndarray and a.size < STATE.min_array)) \
            and (tb is float or (tb is np.ndarray and b.size < STATE.min_array)):
        return NotImplemented
    # A user-visible gpuArray operand: explicit gpuArray semantics (the
    # device routing), what the rule and the full scan below conclude.
    hidden_a = hidden_b = False
    if ta is not float and isinstance(a, DeviceValue):
        if a not in AUTO_OFFLOADED:
            return NotImplemented
        hidden_a = True
    if tb is not float and isinstance(b, DeviceValue):
        if b not in AUTO_OFFLOADED:
            return NotImplemented
        hidden_b = True
    if not STATE.explain:
        reason = _device_rule(op, a, b, ta, tb, hidden_a, hidden_b)
        if reason is not None:
            # ~30 us less per operation than the full decision (counted the same).
            device_binary = _route().device_binary
            STATE.planner.log.counts[(DEVICE, reason)] += 1
            with _suspended():
                return hide_device_value(device_binary(op, a, b))
    hidden, visible, big, nbytes = _scan((a, b))
    if visible or (not hidden and big < STATE.min_array and not (STATE.explain and big > 1)):
        return NotImplemented
    category = _operator_category(op, a, b)
    if category is not None and not (_host_operand_ok(a) and _host_operand_ok(b)):
        category = None
    if category == "matmul":
        work = _matmul_flops(a, b)
    else:
        work = max(big, _device_numel((a, b)))
    operands = (a, b)
    resident, pending = hidden_operands(operands) if hidden else (False, 0)
    decision = STATE.planner.decide(op, category, work, upload_bytes=nbytes, resident=resident,
                                    operands=operands, pending_bytes=pending,
                                    reread=_reread(operands) if category else False)
    if decision.on_device:
        from matfuse.accelerate.router.route import device_binary

        with _suspended():
            return hide_device_value(device_binary(op, _promote(a), _promote(b)))
    if not hidden:
        return NotImplemented
    from matfuse.runtime import ops

    return ops.binary(op, *_gathered([a, b]))


# ------------------------------------------------------------------ construction
def construction_target(name: str, shape: tuple[int, ...], cls: str = "double") -> Decision | None:
    """Where a construction builtin should create its result (None when
    auto-offload is not active)."""
    if STATE.mode != ACTIVE or STATE.planner is None:
        return None
    from matfuse.accelerate.fusion.executor import fusion_enabled

    return STATE.planner.construction_target(name, int(math.prod(shape)),
                                             4 if cls == "single" else 8,
                                             fused=fusion_enabled(STATE.provider))


def _construct(b: Builtin, args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    numel, shape, cls = construction_request(b.name, args, STATE.min_array)
    if numel < STATE.min_array or nargout > 1:
        return None
    decision = construction_target(b.name, shape, cls)
    if decision is None or not decision.on_device:
        return None
    with _suspended():
        return create_on_device(b, args, shape, cls, STATE.provider,
                                lambda: invoke(b, args, nargout, ctx))


# ------------------------------------------------------------------ explain
def enable_explain(enabled: bool = True) -> None:
    """Record every decision, and every host fallback of device data, with
    its statement line (``matfuse run --explain``)."""
    from matfuse.accelerate.planner.explain import statement_line
    from matfuse.accelerate_api import observe_fallbacks

    STATE.explain = enabled
    STATE.fallback_lines.clear()
    if STATE.mode != OFF:
        _set_reach()     # else the bootstrap hooks keep theirs until installed
    observe_fallbacks((lambda what, reason: STATE.fallback_lines.append(
        (*statement_line(), what, reason)))
                      if enabled else None)
    if STATE.planner is not None:
        _enable_lines(STATE.planner)


def _enable_lines(planner: Planner) -> None:
    planner.log.keep_all(STATE.explain)
    from matfuse.accelerate.planner.explain import statement_line

    planner.line_source = statement_line if STATE.explain else None
