"""Replaying the lazy graph an assignment statement builds.

Building a statement's lazy graph through the generic operator and builtin
dispatch costs 15-40 us of Python per statement (class rules, planner hints,
shape checks, one FNode per operation). A script or function body run again
with values of the same kinds builds the same graph over new operands, so
the VM (``vm/_stmt.py``) lets a :class:`StatementMemo` remember it:

1. The key of one execution is, for every name the right-hand side reads,
   what the graph can depend on: a gpuArray's provider, class, shape, IR
   dtype, laziness and visibility; a host scalar's or small array's exact
   value; "not a variable" for function names (which must resolve to
   side-effect-free builtins, re-checked when name resolution changes).
2. The first execution with a new key runs normally and is recorded: the
   nodes it created form a *template* over the read gpuArrays' nodes
   (parameters), with random counters relative to the device stream.
   Anything else (a host result, an older node that is not a parameter, a
   materialised node, a host random draw, an error) records "not memoizable"
   for that key.
3. Later executions with that key build the template's nodes directly, move
   the device stream on by what the statement drew, and apply the group
   cost cap as the lazy builders do.

Shapes, classes and MATLAB errors were checked by the recorded execution;
they are functions of the key, so a replay cannot raise them. The provider's
per-operation counters do not see replayed statements
(``STATS.statement_replays`` counts them, shown by ``--stats``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.accelerate import device_rng
from matfuse.accelerate import facade
from matfuse.accelerate.facade import current_options
from matfuse.accelerate.fusion import graph as g
from matfuse.accelerate.fusion.executor import STATS, fusion_enabled
from matfuse.accelerate.fusion.graph import FNode
from matfuse.accelerate.fusion.lazy import MAX_GROUP_COST
from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.planner import offload
from matfuse.accelerate_api import provider as active_provider
from matfuse.runtime import hints
from matfuse.runtime import _rng
from matfuse.runtime.values import DeviceValue, hide_device_value

# Keys remembered per statement before it stops memoising (a statement whose
# host inputs change every time would otherwise record forever).
MAX_KEYS = 8
# Host arrays up to this many elements are part of the key by value.
MAX_KEY_ELEMENTS = 16
_MISSING = object()
_RANDOM = ("rand", "randn")
# Ops whose node holds something other than its attrs and operands.
_OPAQUE_OPS = frozenset({"input", "loop", "loopvar", "placeholder"})
_FUSABLE_CLASSES = ("double", "single", "logical")


class _Template:
    """The nodes one recorded execution created, in post-order."""

    __slots__ = ("entries", "matlab_class", "provider", "hidden", "host_scalar",
                 "rng_key", "delta")

    def __init__(self) -> None:
        self.entries: list[tuple] = []
        self.matlab_class = ""
        self.provider: Any = None
        self.hidden = False
        self.host_scalar: Any = None
        self.rng_key: tuple[int, int] = (0, 0)
        self.delta = 0


class StatementMemo:
    """Recorded graph templates of one ``name = expr;`` statement.

    Args:
        names: every name the right-hand side reads (variables or functions).
        safe: whether a name that is not a variable may be called without
            running it (``names_safe(frame)``, from ``vm/_replay.py``).
    """

    def __init__(self, names: tuple[str, ...], safe: Callable[[Any], bool]):
        self.names = names
        self._safe = safe
        self._templates: dict[tuple, _Template | None] = {}
        self._disabled = False
        self._host_results = 0

    def evaluate(self, fr: Any, compute: Callable[[Any], Any]) -> Any:
        """The value of the right-hand side in frame ``fr`` (``compute`` runs
        it through the interpreter when no template applies)."""
        if self._disabled or not hints.ACTIVE:
            # No lazy device value exists yet: host-only programs pay one check.
            return compute(fr)
        if not current_options().statement_replay:
            return compute(fr)
        key, arrays = self._key(fr)
        if key is None:
            return compute(fr)
        template = self._templates.get(key, _MISSING)
        if template is _MISSING:
            if len(self._templates) >= MAX_KEYS:
                self._disabled = True
                self._templates.clear()
                return compute(fr)
            return self._record(fr, key, arrays, compute)
        if template is None:
            return compute(fr)
        value = _replay(template, _params(arrays))
        if value is None:
            return compute(fr)
        return value

    # ------------------------------------------------------------ keys
    def _key(self, fr: Any) -> tuple[tuple | None, list[Any]]:
        """The key of this execution (None: not keyable) and the gpuArrays
        read, in name order (the template's parameters come from them)."""
        get = fr.get
        arrays: list[Any] = []
        # Name resolution, the acceleration state (provider and options) and
        # the auto-offload planner (what it decided at the recording) first;
        # objects hashed by identity, which the key keeps alive.
        planning = offload.STATE
        parts: list[Any] = [fr.interp.generation, facade._state, planning.planner, planning.mode]
        append = parts.append
        for name in self.names:
            v = get(name, _MISSING)
            t = type(v)
            if t is float:
                if v != v:
                    append("nan")
                elif v == 0.0:
                    append((0.0, math.copysign(1.0, v)))
                else:
                    append(v)
            elif t is GpuArray:
                arrays.append(v)
                # host_scalar: builtins read a scalar's value from it (a
                # linspace endpoint) into node attributes the template keeps.
                if v.is_lazy:
                    node = v.node
                    append((id(v.provider), v.matlab_class, node.shape, node.dtype, True,
                            v.user_visible, v.host_scalar))
                else:
                    handle = v._handle
                    append((id(v.provider), v.matlab_class, handle.shape, handle.dtype, False,
                            v.user_visible, v.host_scalar))
            elif v is _MISSING:
                append(_MISSING)
            elif t is bool:
                append(("bool", v))
            elif t is np.ndarray and v.size <= MAX_KEY_ELEMENTS and v.dtype.kind in "biuf":
                append((v.dtype.str, v.shape, v.tobytes()))
            else:
                return None, arrays
        return tuple(parts), arrays

    # ------------------------------------------------------------ recording
    def _record(self, fr: Any, key: tuple, arrays: list[Any], compute: Callable[[Any], Any]) -> Any:
        if not self._safe(fr):
            self._templates[key] = None
            return compute(fr)
        params = _params(arrays)
        first_uid = g.next_uid()
        rng_key, rng_start = device_rng.position()
        host_draws = _rng.GENERATOR.changes
        downloads = _downloads()
        value = compute(fr)   # an error propagates and records nothing
        template = None
        if not isinstance(value, DeviceValue):
            # A statement computing host values twice is left alone.
            self._host_results += 1
            if self._host_results >= 2:
                self._disabled = True
                self._templates.clear()
                return value
        end_key, rng_end = device_rng.position()
        # A download means device values became host values (an endpoint,
        # an index) that the template would freeze: not replayable.
        if _rng.GENERATOR.changes == host_draws and end_key == rng_key and _downloads() == downloads:
            template = _template(value, params, first_uid, rng_key, rng_start)
            if template is not None:
                template.delta = rng_end - rng_start
        self._templates[key] = template
        return value


def _params(arrays: list[Any]) -> list[FNode]:
    """The fusion node of every fusable gpuArray a statement reads (in name
    order: a template's parameter slots)."""
    params: list[FNode] = []
    for v in arrays:
        if v.matlab_class in _FUSABLE_CLASSES:
            if v.is_lazy:
                params.append(v.node)
            elif np.dtype(v._handle.dtype).kind != "c":
                params.append(v.fusion_node())
    return params


def _downloads() -> int:
    """Downloads the active provider has made (its telemetry counter)."""
    p = active_provider()
    return 0 if p is None else int(p.telemetry().get("downloads", 0))


def _template(value: Any, params: list[FNode], first_uid: int,
              rng_key: tuple[int, int], rng_start: int) -> _Template | None:
    """The template of a statement whose result is ``value``, or None."""
    if type(value) is not GpuArray or not value.is_lazy or not fusion_enabled(value.provider):
        return None
    root = value.node
    if root.uid < first_uid:
        return None     # the value of an existing variable (``y = x;``)
    slots = {node.uid: k for k, node in enumerate(params)}
    if len(slots) < len(params):
        return None     # two names hold one array: a replay could not tell them apart
    refs: dict[int, int] = {}
    template = _Template()
    entries = template.entries
    opaque = lambda n: n.uid in slots or n.uid < first_uid or n.handle is not None  # noqa: E731
    for node in g.walk_until([root], opaque):
        uid = node.uid
        if uid in slots:
            refs[uid] = slots[uid]
            continue
        if uid < first_uid or node.handle is not None or node.op in _OPAQUE_OPS:
            return None
        attrs = node.attrs
        random = node.op in _RANDOM
        if random:
            if (attrs[0], attrs[1]) != tuple(rng_key):
                return None
            attrs = (attrs[2] - rng_start,)
        refs[uid] = len(slots) + len(entries)
        arg_refs = tuple([refs[a.uid] for a in node.args])
        entries.append((node.op, arg_refs, node.shape, node.dtype, attrs, random))
    template.matlab_class = value.matlab_class
    template.provider = value.provider
    template.hidden = not value.user_visible
    template.host_scalar = value.host_scalar
    template.rng_key = rng_key
    return template


def _replay(template: _Template, params: list[FNode]) -> Any:
    """A new lazy gpuArray built from ``template`` over ``params``, or None
    when the device stream's key or the active provider changed since the
    recording."""
    rng_key, start = device_rng.position()
    if rng_key != template.rng_key or active_provider() is not template.provider:
        return None
    # Parameters first, then the nodes made so far: refs index this list.
    values = params   # a fresh list (``_params``): extended in place
    append = values.append
    for op, refs, shape, dtype, attrs, random in template.entries:
        if random:
            attrs = (rng_key[0], rng_key[1], start + attrs[0])
        count = len(refs)
        if count == 1:
            args: tuple = (values[refs[0]],)
        elif count == 2:
            args = (values[refs[0]], values[refs[1]])
        else:
            args = tuple([values[i] for i in refs])
        append(FNode(op, args, shape, dtype, attrs))
    if template.delta:
        device_rng.advance(template.delta)
    STATS.statement_replays += 1
    root = values[-1]
    out = GpuArray.from_node(root, template.matlab_class, template.provider)
    out.host_scalar = template.host_scalar
    if template.hidden:
        hide_device_value(out)
    if root.cost > MAX_GROUP_COST:
        out.materialize(use_hints=False)
    return out
