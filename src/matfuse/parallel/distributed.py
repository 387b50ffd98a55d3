"""Running a parfor's iterations on a Dask pool.

The job (body, classification, code bundle, broadcast values) is scattered
once to every worker that runs chunks; each chunk task carries only its
iteration values and its sliced variables' slices, and is pinned to a
worker by ``schedule.ChunkFeeder`` (chunk sizes: ``schedule.factoring_chunks``).
A task whose worker dies is re-run by Dask on another worker (tasks are
pure functions of their inputs). The first iteration error cancels the
outstanding chunks and is raised here; so is Ctrl-C.

Each parfor adds its time to ``STATS.phases``: on the client, preparing
the job, scattering it, submitting chunks (slicing inputs), waiting, and
merging results; on the workers, setup (provider, code, broadcast values),
iterations and encoding results, summed over workers.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from matfuse.errors import MatlabError
from matfuse.parallel import reduction
from matfuse.parallel.classify import ParforPlan
from matfuse.parallel.code_bundle import make_bundle
from matfuse.parallel.iterations import iteration_error
from matfuse.parallel.schedule import ChunkFeeder, factoring_chunks
from matfuse.parallel.stats import STATS, size_of
from matfuse.parallel.transport import decode, decode_error, encode
from matfuse.parallel.worker import FevalJob, ParforJob, run_chunk


def accelerate_options() -> Any:
    """The client's acceleration settings when a provider runs here (workers
    start theirs the same way), else None."""
    from matfuse.accelerate import facade

    state = facade.acceleration_state()
    return state.options if state is not None else None


def _targets(pool: Any, limit: int | None) -> list[str]:
    """The workers that run chunks: all, or the first ``limit``."""
    addresses = pool.worker_addresses()
    if limit is not None and 0 < limit < len(addresses):
        return addresses[:limit]
    return addresses


def run_on_pool(pool: Any, plan: ParforPlan, code_key: str, fr: Any, values: list[float],
                broadcast: dict[str, Any], sliced: dict[str, Any],
                limit: int | None) -> tuple[dict[str, Any], dict[str, list]]:
    """Run the iterations on ``pool``; returns (new values of the sliced
    outputs, reduction contributions of every iteration). ``code_key``:
    the plan's digest (workers keep its compiled body)."""
    from distributed import as_completed
    from distributed.client import FutureCancelledError

    began = time.perf_counter()
    client = pool.client
    interp = fr.interp
    targets = _targets(pool, limit)
    if not targets:
        raise MatlabError("parallel:internal:NoWorkers",
                          "The parallel pool has no workers to run the parfor loop.")
    bundle = make_bundle(fr.file, interp.functions.path)
    job = ParforJob(plan, bundle, {k: encode(v) for k, v in broadcast.items()},
                    uuid.uuid4().hex, f"{code_key}-{bundle.key}", accelerate_options())
    offsets = {name: reduction.offset_value(form, fr.__getitem__)
               for name, form in plan.sliced.items()}
    prepared = time.perf_counter()
    # Every worker that runs chunks holds the job: Dask places a task where
    # its inputs are, so a job held by one worker would draw every chunk there.
    job_future = client.scatter(job, workers=targets, broadcast=True, hash=False)
    scattered = time.perf_counter()
    STATS.parfor_loops += 1
    STATS.iterations += len(values)
    STATS.bytes_sent += _job_bytes(job) * len(targets)
    chunks = factoring_chunks(len(values), len(targets))
    submitting = 0.0

    def submit(index: int, worker: str) -> Any:
        nonlocal submitting
        t0 = time.perf_counter()
        lo, hi = chunks[index]
        part = values[lo:hi]
        blocks = {}
        for name, value in sliced.items():
            positions = [int(v) + offsets[name] for v in part]
            present, block = reduction.take_block(plan.sliced[name], value, positions)
            if present:
                blocks[name] = (present, encode(block))
        STATS.bytes_sent += size_of(blocks)
        STATS.tasks += 1
        STATS.chunks += 1
        fut = client.submit(run_chunk, job_future, part, blocks, offsets, pure=False,
                            key=f"parfor-{job.token}-{index}", workers=[worker],
                            allow_other_workers=True)
        submitting += time.perf_counter() - t0
        return fut

    feeder = ChunkFeeder(len(chunks), targets, submit)
    results: dict[int, dict[str, Any]] = {}
    try:
        finished = as_completed(feeder.start(), loop=client.loop)
        for fut in finished:
            res = _result(fut, FutureCancelledError)
            STATS.bytes_received += size_of(res)
            STATS.worker_done(res["worker"], res["seconds"])
            if res["text"]:
                interp.write(res["text"])
            if res["warnings"]:
                interp.write_err(res["warnings"])
            if not res["ok"]:
                cancel_tasks(client, feeder.futures)
                raise iteration_error(decode_error(res["error"]), res["iteration"])
            for phase, seconds in res["phases"].items():
                STATS.add_phase(phase, seconds)
            results[feeder.index_of[fut.key]] = res
            following = feeder.finished(fut)
            if following is not None:
                finished.add(following)
    except KeyboardInterrupt:
        cancel_tasks(client, feeder.futures)
        raise
    finally:
        client.cancel([job_future])
    waited = time.perf_counter()
    merged = _merge(plan, fr, sliced, results, interp)
    done = time.perf_counter()
    STATS.add_phase("client prepare", prepared - began)
    STATS.add_phase("client scatter", scattered - prepared)
    STATS.add_phase("client submit", submitting)
    STATS.add_phase("client wait", waited - scattered - submitting)
    STATS.add_phase("client merge", done - waited)
    STATS.add_phase("parfor total", done - began)
    return merged


def bundle_bytes(bundle: Any) -> int:
    return sum(len(text) for _, files in bundle.folders for _, text in files)


def _job_bytes(job: ParforJob) -> int:
    """Estimated bytes of a parfor job: broadcast values and code."""
    return size_of(job.broadcast) + bundle_bytes(job.bundle)


def cancel_tasks(client: Any, futures: list[Any]) -> None:
    """Cancel tasks: queued ones are dropped; workers running one are
    restarted (a running task cannot be interrupted otherwise), as MATLAB
    interrupts the workers of cancelled futures."""
    keys = {f.key for f in futures if not f.done()}
    if not keys:
        return
    busy = _running_on(client, keys)
    if not busy:
        # A task submitted a moment ago may not have reached the scheduler.
        time.sleep(0.2)
        busy = _running_on(client, keys)
    client.cancel(futures)
    if busy:
        from matfuse.parallel.local_cluster import RESTART_TIMEOUT_S

        # Dask drops a worker that has not restarted within the timeout:
        # a generous one keeps the pool whole on a loaded machine.
        client.restart_workers(busy, timeout=RESTART_TIMEOUT_S, raise_for_error=False)


def _running_on(client: Any, keys: set[str]) -> list[str]:
    return [w for w, running in client.processing().items() if keys & set(running)]


def _result(fut: Any, cancelled: type) -> dict[str, Any]:
    from distributed import KilledWorker

    try:
        return fut.result()
    except KilledWorker:
        raise MatlabError("parallel:internal:WorkerDied",
                          "The parallel pool workers running a parfor chunk died repeatedly; "
                          "the loop was stopped.") from None
    except cancelled:
        raise MatlabError("parallel:internal:Cancelled",
                          "The parfor loop was cancelled.") from None


def _merge(plan: ParforPlan, fr: Any, sliced: dict[str, Any],
           results: dict[int, dict[str, Any]], interp: Any) -> tuple[dict[str, Any], dict]:
    outputs: dict[str, Any] = {}
    contributions: dict[str, list] = {}
    scope = fr.scope
    for k in sorted(results):
        res = results[k]
        for name, (positions, block) in res["sliced"].items():
            current = outputs.get(name, sliced.get(name))
            outputs[name] = reduction.put_block(plan.sliced[name], current, positions,
                                                decode(block, interp, scope))
        for name, entries in res["contributions"].items():
            contributions.setdefault(name, []).extend(
                (it, op, [decode(v, interp, scope) for v in vals]) for it, op, vals in entries)
    return outputs, contributions


def submit_feval(pool: Any, fr: Any, fn: Any, nargout: int, args: list[Any]) -> Any:
    """A Dask future running ``fn(args{:})`` on a worker (``parfeval``)."""
    from matfuse.parallel.worker import run_feval

    interp = fr.interp
    job = FevalJob(make_bundle(fr.file, interp.functions.path), accelerate_options())
    payload = [encode(a) for a in args]
    STATS.fevals += 1
    STATS.tasks += 1
    STATS.bytes_sent += size_of(payload) + bundle_bytes(job.bundle)
    return pool.client.submit(run_feval, job, encode(fn), nargout, payload, pure=False)
