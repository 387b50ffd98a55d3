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
    """What every chunk of one parfor shares (scattered once to the workers)."""

    plan: ParforPlan
    bundle: CodeBundle
    broadcast: dict[str, Any]
    token: str                    # unique per parfor run: the broadcast values' cache key
    code_key: str                 # hash of the body and the code bundle: the compiled body's
    options: Any = None           # the client's AccelerateInitOptions


@dataclass
class FevalJob:
    bundle: CodeBundle
    options: Any = None


# Compiled parfor bodies kept per worker (a script's parfors, re-run).
MAX_COMPILED_BODIES = 32


class _WorkerState:
    """The process's interpreter and caches (created on the first task):
    the code bundle's loaded file, compiled bodies by ``code_key`` and the
    current parfor's broadcast values."""

    def __init__(self) -> None:
        from matfuse.vm.interpreter import Interpreter

        self.interp = Interpreter(io.StringIO(), io.StringIO())
        self.bundle_key: str | None = None
        self.scope: Any = None
        self.bodies: dict[str, Any] = {}
        self.broadcast_token: str | None = None
        self.broadcast: dict[str, Any] = {}
        self.options: Any = None
        self._seed_streams()

    def _seed_streams(self) -> None:
        """Each worker draws from its own random streams: the host generator
        (twister) and the device stream are seeded from a hash of the
        worker's name; ``rng`` in the loop body overrides both."""
        from matfuse.runtime import gpu_rng

        name = _worker_name()
        seed = zlib.crc32(name.encode()) % (2**31)
        self.interp.call("rng", [float(seed)], 0)
        gpu_rng.seed(seed)

    def accelerate(self, options: Any) -> None:
        """Run the acceleration provider the client uses (started once;
        restarted when the client's settings change)."""
        if options is None:
            return
        from matfuse.accelerate import facade
        from matfuse.accelerate.options import visible_cuda_devices

        if (visible_cuda_devices() or "").isdigit():
            # This worker owns one GPU: it is device 0 here.
            options = options.with_changes(device_index=0)
        if options == self.options:
            return
        if facade.acceleration_state() is not None:
            facade.shutdown_acceleration()
        facade.initialize_acceleration_provider(options)
        self.options = options
        self.broadcast_token = None   # its gpuArrays lived on the old provider

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
        self.bodies.clear()
        self.broadcast_token = None
        self.bundle_key = bundle.key

    def body(self, job: ParforJob) -> Any:
        """The job's compiled body (compiled once per ``code_key``)."""
        run_body = self.bodies.get(job.code_key)
        if run_body is None:
            if len(self.bodies) >= MAX_COMPILED_BODIES:
                self.bodies.clear()
            run_body = self.bodies[job.code_key] = compile_body(job.plan, self.scope)
        return run_body

    def broadcast_values(self, job: ParforJob) -> dict[str, Any]:
        """The job's broadcast values, rebuilt once per parfor run
        (gpuArrays uploaded, handles rebuilt)."""
        if job.token != self.broadcast_token:
            self.broadcast = {k: decode(v, self.interp, self.scope)
                              for k, v in job.broadcast.items()}
            self.broadcast_token = job.token
        return self.broadcast


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
    variable's slices for these iterations (positions, values). The result
    has the time spent setting up (provider, code, broadcast values),
    running the iterations and encoding the results (``phases``)."""
    started = time.perf_counter()
    st = _state()
    st.use(job.bundle, job.options)
    interp = st.interp
    plan = job.plan
    scope = st.scope
    run_body = st.body(job)
    broadcast = st.broadcast_values(job)
    out, err = io.StringIO(), io.StringIO()
    interp.out, interp.err = out, err
    sliced = {}
    for name, (positions, block) in blocks.items():
        sliced[name] = reduction.put_block(plan.sliced[name], None, positions,
                                           decode(block, interp, scope))
    ready = time.perf_counter()
    try:
        outcome = run_iterations(interp, scope, scope.file, run_body, plan, values,
                                 broadcast, sliced)
    except IterationError as failure:
        return {"ok": False, "iteration": failure.iteration,
                "error": encode_error(failure.error), "text": out.getvalue(),
                "warnings": err.getvalue(),
                "worker": _worker_name(), "seconds": time.perf_counter() - started}
    ran = time.perf_counter()
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
    done = time.perf_counter()
    return {"ok": True, "sliced": results, "contributions": contributions,
            "text": out.getvalue(), "warnings": err.getvalue(),
            "worker": _worker_name(), "pid": os.getpid(), "seconds": done - started,
            "phases": {"worker setup": ready - started, "iterations": ran - ready,
                       "worker encode": done - ran}}


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
