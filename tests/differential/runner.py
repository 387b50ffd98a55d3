"""Run one MATLAB program in one execution mode and capture what it left.

Modes (``MODES``):

* ``host``: the plain program on the interpreter, nothing offloaded (run
  with the in-process provider): the reference;
* ``gpuarray``: inputs moved with ``gpuArray`` first, fusion on (the
  provider's lazy fused kernels where it fuses);
* ``unfused``: the same with fusion off (``MATFUSE_FUSION=0``): every
  operation through the provider's eager hooks;
* ``offload``: the plain program with auto-offload forced onto the provider
  and every planner threshold at 1 (``MATFUSE_AUTO_OFFLOAD=force`` with the
  ``MATFUSE_THRESHOLD_*`` overrides).

The options of a mode are installed as the acceleration state's options for
the duration of the run (the facade reads them there) and restored after.
"""

from __future__ import annotations

import io
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from matfuse.accelerate import facade
from matfuse.accelerate.options import AccelerateInitOptions
from matfuse.accelerate.planner import offload
from matfuse.accelerate.planner.cost_model import CostModel
from matfuse.accelerate.planner.decisions import Planner
from matfuse.accelerate.planner.thresholds import resolve_thresholds
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.accelerate_api import AccelProvider, override_provider
from matfuse.errors import MatlabError
from matfuse.runtime.values import DeviceValue, class_of, to_array
from matfuse.vm.session import Session

MODES = ("gpuarray", "unfused", "offload")
REFERENCE = InProcessProvider()
_DEFAULT_COSTS = CostModel()
_FREE_DEVICE = CostModel(upload_s_per_byte=0.0, download_s_per_byte=0.0, launch_s=0.0,
                         device_s_per_unit={k: 0.0 for k in _DEFAULT_COSTS.device_s_per_unit})
_THRESHOLDS = {f"threshold_{c}": 1 for c in ("elementwise", "reduction", "construction", "matmul")}


@dataclass
class Result:
    """One output variable, gathered: MATLAB class, size, complexity, data."""

    cls: str
    shape: tuple[int, ...]
    complex: bool
    data: np.ndarray


@dataclass
class Outcome:
    """What a run left: output variables, or the first error's identifier
    (with how far the program got: the outputs assigned before it)."""

    results: dict[str, Result] = field(default_factory=dict)
    error: str | None = None
    message: str = ""


def _options(p: AccelProvider, mode: str) -> AccelerateInitOptions:
    if mode == "host":
        return AccelerateInitOptions(provider="inprocess", auto_offload=False)
    if mode == "unfused":
        return AccelerateInitOptions(provider=p.name, fusion=False, auto_offload=False)
    if mode == "offload":
        return AccelerateInitOptions(provider=p.name, auto_offload="force", **_THRESHOLDS)
    return AccelerateInitOptions(provider=p.name, auto_offload=False)


@contextmanager
def _mode(p: AccelProvider, mode: str) -> Iterator[None]:
    saved = facade.use_acceleration_state(
        facade.AccelerationState(_options(p, mode), p, p.name))
    try:
        with override_provider(p):
            if mode == "offload":
                # a cost model where the device costs nothing: every call
                # over the thresholds that can run on the device does
                thresholds = resolve_thresholds(facade.current_options())
                offload.activate(p, planner=Planner(thresholds, _FREE_DEVICE))
            yield
    finally:
        if mode == "offload":
            offload.reset()
        facade.use_acceleration_state(saved)


def _capture(value: Any) -> Result:
    if isinstance(value, DeviceValue):
        value = value.gather()
    arr = to_array(value)
    return Result(class_of(value), tuple(arr.shape), bool(np.iscomplexobj(arr)), np.asarray(arr))


def run(source: str, inputs: dict[str, np.ndarray], outputs: list[str],
        p: AccelProvider, mode: str) -> Outcome:
    """Run ``source`` in ``mode`` on provider ``p`` with the variables
    ``inputs`` set first; capture the variables ``outputs``."""
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    for name, value in inputs.items():
        session.interp.base[name] = np.array(value, copy=True)
    prefix = ""
    if mode in ("gpuarray", "unfused"):
        prefix = "".join(f"{name} = gpuArray({name}); " for name in inputs)
    outcome = Outcome()
    with _mode(p, mode):
        try:
            session.eval(prefix + source)
        except MatlabError as err:
            outcome.error = err.identifier or "(no identifier)"
            outcome.message = str(err)
        for name in outputs:
            if name in session.interp.base:
                outcome.results[name] = _capture(session.interp.base[name])
    return outcome
