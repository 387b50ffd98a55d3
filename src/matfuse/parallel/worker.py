"""What runs inside a worker process: one matfuse interpreter per process,
and the task functions the client submits (a parfor chunk, a parfeval call).

Tasks return plain data (``encode``d values, or an error payload naming
the iteration); they never raise for MATLAB errors, so Dask only retries
a task whose worker died (the results are then recomputed unchanged).
"""

from __future__ import annotations

import io
import os
import time
import zlib
from dataclasses import dataclass
from typing import Any

from matfuse.errors import MatlabError
from matfuse.parallel import reduction
from matfuse.parallel.classify import ParforPlan
from matfuse.parallel.code_bundle import CodeBundle, materialize
from matfuse.parallel.iterations import IterationError, compile_body, run_iterations
from matfuse.parallel.transport import decode, encode, encode_error


@dataclass
class ParforJob:
    """What every chunk of one parfor shares (scattered once)."""

    plan: ParforPlan
    bundle: CodeBundle
    broadcast: dict[str, Any]
    token: str                    # unique per parfor run: the compiled body's cache key
    options: Any = None           # the client's AccelerateInitOptions


@dataclass
class FevalJob:
    bundle: CodeBundle
    options: Any = None


class _WorkerState:
    """The process's interpreter and caches (created on the first task)."""

    def __init__(self) -> None:
        from matfuse.vm.interpreter import Interpreter

        self.interp = Interpreter(io.StringIO(), io.StringIO())
        self.bundle_key: str | None = None
        self.scope: Any = None
        self.compiled: dict[str, Any] = {}
        self.accelerated = False
        self._seed_stream()

    def _seed_stream(self) -> None:
        """Each worker draws from its own random stream: the generator is
        seeded from the worker's name (``rng`` in the loop body overrides)."""
        name = _worker_name()
        seed = zlib.crc32(name.encode()) % (2**31)
        self.interp.call("rng", [float(seed)], 0)

    def accelerate(self, options: Any) -> None:
        """Start the acceleration provider the client uses (once)."""
        if options is None or self.accelerated:
            return
        from matfuse.accelerate import facade
        from matfuse.accelerate.options import visible_cuda_devices

        if (visible_cuda_devices() or "").isdigit():
            # This worker owns one GPU: it is device 0 here.
            options = options.with_changes(device_index=0)
        if facade.acceleration_state() is None:
            facade.initialize_acceleration_provider(options)
        self.accelerated = True

    def use(self, bundle: CodeBundle, options: Any) -> None:
        self.accelerate(options)
        if bundle.key == self.bundle_key:
            return
        folders, local_file = materialize(bundle)
        interp = self.interp
        interp.functions.path[:] = folders
        interp.invalidate()
        from matfuse.vm.functions import FileScope

        self.scope = (interp.functions.load_file(local_file) if local_file
                      else FileScope(None))
        self.compiled.clear()
        self.bundle_key = bundle.key


_STATE: _WorkerState | None = None


def _state() -> _WorkerState:
    global _STATE
    if _STATE is None:
        _STATE = _WorkerState()
    return _STATE


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().name)
    except (ImportError, ValueError):
        return f"pid{os.getpid()}"


def run_chunk(job: ParforJob, values: list[float], blocks: dict[str, tuple[list[int], Any]],
              offsets: dict[str, int]) -> dict[str, Any]:
    """Run the iterations ``values`` of a parfor; ``blocks``: each sliced
    variable's slices for these iterations (positions, values)."""
    started = time.perf_counter()
    st = _state()
    st.use(job.bundle, job.options)
    interp = st.interp
    plan = job.plan
    scope = st.scope
    cached = st.compiled.get(job.token)
    if cached is None:
        # Once per parfor on this worker: compile the body, rebuild the
        # broadcast values (gpuArrays uploaded, handles rebuilt).
        cached = (compile_body(plan, scope),
                  {k: decode(v, interp, scope) for k, v in job.broadcast.items()})
        st.compiled = {job.token: cached}
    run_body, broadcast = cached
    out, err = io.StringIO(), io.StringIO()
    interp.out, interp.err = out, err
    sliced = {}
    for name, (positions, block) in blocks.items():
        sliced[name] = reduction.put_block(plan.sliced[name], None, positions,
                                           decode(block, interp, scope))
    try:
        outcome = run_iterations(interp, scope, scope.file, run_body, plan, values,
                                 broadcast, sliced)
    except IterationError as failure:
        return {"ok": False, "iteration": failure.iteration,
                "error": encode_error(failure.error), "text": out.getvalue(),
                "warnings": err.getvalue(),
                "worker": _worker_name(), "seconds": time.perf_counter() - started}
    results = {}
    for name in plan.sliced_outputs:
        value = outcome.sliced.get(name)
        if value is None:
            continue
        form = plan.sliced[name]
        positions = [int(v) + offsets.get(name, 0) for v in values]
        present, block = reduction.take_block(form, value, positions)
        if present:
            results[name] = (present, encode(block))
    contributions = {name: [(it, op, [encode(v) for v in vals]) for it, op, vals in entries]
                     for name, entries in outcome.contributions.items()}
    return {"ok": True, "sliced": results, "contributions": contributions,
            "text": out.getvalue(), "warnings": err.getvalue(),
            "worker": _worker_name(), "pid": os.getpid(),
            "seconds": time.perf_counter() - started}


def run_feval(job: FevalJob, fn: Any, nargout: int, args: list[Any]) -> dict[str, Any]:
    """``parfeval``: call ``fn(args{:})`` with ``nargout`` outputs."""
    started = time.perf_counter()
    st = _state()
    st.use(job.bundle, job.options)
    interp = st.interp
    out = io.StringIO()
    interp.out = out
    try:
        target = decode(fn, interp, st.scope)
        values = interp.call(target, [decode(a, interp, st.scope) for a in args], nargout)
        if len(values) < nargout:
            raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
    except MatlabError as err:
        return {"ok": False, "error": encode_error(err), "text": out.getvalue(),
                "worker": _worker_name(), "seconds": time.perf_counter() - started}
    return {"ok": True, "outputs": [encode(v) for v in values[:nargout]],
            "text": out.getvalue(), "worker": _worker_name(),
            "seconds": time.perf_counter() - started}


def prepare(options: Any) -> int:
    """Start this worker's interpreter (and provider) ahead of the first
    task, as ``parpool`` starts MATLAB on every worker; returns the pid."""
    _state().accelerate(options)
    return os.getpid()


def worker_info() -> dict[str, Any]:
    """The worker's pid, name and visible GPU (``CUDA_VISIBLE_DEVICES``)."""
    from matfuse.accelerate.options import visible_cuda_devices

    return {"pid": os.getpid(), "name": _worker_name(),
            "gpu": visible_cuda_devices()}
