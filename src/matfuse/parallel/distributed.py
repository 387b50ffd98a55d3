"""Running a parfor's iterations on a Dask pool.

The job (body, classification, code bundle, broadcast values) is sent once
and fetched once by each worker; each chunk task carries only its
iteration values and its sliced variables' slices. A task whose worker dies is re-run by
Dask on another worker (tasks are pure functions of their inputs). The
first iteration error cancels the outstanding chunks and is raised here;
so is Ctrl-C.
"""

from __future__ import annotations

import time
from typing import Any

from matfuse.errors import MatlabError
from matfuse.parallel import reduction
from matfuse.parallel.classify import ParforPlan
from matfuse.parallel.code_bundle import make_bundle
from matfuse.parallel.iterations import iteration_error
from matfuse.parallel.loop import chunk_ranges, new_token
from matfuse.parallel.stats import STATS, size_of
from matfuse.parallel.transport import decode, decode_error, encode
from matfuse.parallel.worker import FevalJob, ParforJob, run_chunk


def accelerate_options() -> Any:
    """The client's acceleration settings when a provider runs here (workers
    start theirs the same way), else None."""
    from matfuse.accelerate import facade

    state = facade.acceleration_state()
    return state.options if state is not None else None


def _targets(pool: Any, limit: int | None) -> tuple[int, list[str] | None]:
    addresses = pool.worker_addresses()
    if limit is not None and 0 < limit < len(addresses):
        return limit, addresses[:limit]
    return max(1, len(addresses)), None


def run_on_pool(pool: Any, plan: ParforPlan, fr: Any, values: list[float],
                broadcast: dict[str, Any], sliced: dict[str, Any],
                limit: int | None) -> tuple[dict[str, Any], dict[str, list]]:
    """Run the iterations on ``pool``; returns (new values of the sliced
    outputs, reduction contributions of every iteration)."""
    from distributed import as_completed
    from distributed.client import FutureCancelledError

    client = pool.client
    interp = fr.interp
    nworkers, restrict = _targets(pool, limit)
    bundle = make_bundle(fr.file, interp.functions.path)
    job = ParforJob(plan, bundle, {k: encode(v) for k, v in broadcast.items()},
                    new_token(), accelerate_options())
    # The job is a task's result, not scattered data: Dask can recompute
    # it if every worker holding it dies; each worker fetches it once.
    job_future = client.submit(_hold, job, pure=False, key=f"parfor-job-{job.token}")
    STATS.parfor_loops += 1
    STATS.iterations += len(values)
    STATS.bytes_sent += _job_bytes(job) * nworkers
    offsets = {name: reduction.offset_value(form, fr.__getitem__)
               for name, form in plan.sliced.items()}
    futures = []
    chunks = chunk_ranges(len(values), nworkers)
    for index, (lo, hi) in enumerate(chunks):
        part = values[lo:hi]
        blocks = {}
        for name, value in sliced.items():
            form = plan.sliced[name]
            positions = [int(v) + offsets[name] for v in part]
            present, block = reduction.take_block(form, value, positions)
            if present:
                blocks[name] = (present, encode(block))
        STATS.bytes_sent += size_of(blocks)
        options = {"workers": restrict, "allow_other_workers": False} if restrict else {}
        fut = client.submit(run_chunk, job_future, part, blocks, offsets, pure=False,
                            key=f"parfor-{job.token}-{index}", **options)
        futures.append(fut)
    STATS.tasks += len(futures)
    STATS.chunks += len(futures)
    results: dict[int, dict[str, Any]] = {}
    order = {f.key: k for k, f in enumerate(futures)}
    try:
        for fut in as_completed(futures, loop=client.loop):
            res = _result(fut, FutureCancelledError)
            STATS.bytes_received += size_of(res)
            STATS.worker_done(res["worker"], res["seconds"])
            if res["text"]:
                interp.write(res["text"])
            if res["warnings"]:
                interp.write_err(res["warnings"])
            if not res["ok"]:
                cancel_tasks(client, futures)
                raise iteration_error(decode_error(res["error"]), res["iteration"])
            results[order[fut.key]] = res
    except KeyboardInterrupt:
        cancel_tasks(client, futures)
        raise
    finally:
        client.cancel([job_future])
    return _merge(plan, fr, sliced, results, interp)


def bundle_bytes(bundle: Any) -> int:
    return sum(len(text) for _, files in bundle.folders for _, text in files)


def _job_bytes(job: ParforJob) -> int:
    """Estimated bytes of a parfor job: broadcast values and code."""
    return size_of(job.broadcast) + bundle_bytes(job.bundle)


def _hold(job: ParforJob) -> ParforJob:
    return job


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
        # Dask drops a worker that has not restarted within the timeout:
        # a generous one keeps the pool whole on a loaded machine.
        client.restart_workers(busy, timeout=300, raise_for_error=False)


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
