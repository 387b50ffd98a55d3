"""Parallel Computing Toolbox builtins on Dask (``matfuse.parallel``):
parpool, gcp, parfeval, fetchOutputs, fetchNext, cancel, afterEach, and
the hidden ``_parfor_contribute`` that parfor reduction statements become.
(``delete(pool)`` goes through ``delete``; ``wait(F)`` through ``wait``.)
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import int_value, is_text, scalar_value, text_arg
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import FunctionHandle, to_str

NATIVE = GpuSpec(kind="device_native", returns_gpu=False)


@builtin("_parfor_contribute", category="parallel", nargin=(3, None), nargout=(0, 0),
         gpu=NATIVE)
def parfor_contribute(name: Any, op: Any, *values: Any) -> None:
    """A parfor reduction statement's contribution (generated, not callable
    from MATLAB code: the name is not a MATLAB identifier)."""
    from matfuse.parallel.reduction import contribute

    contribute(to_str(name), to_str(op), list(values))


def _announce(ctx: Any, pool: Any) -> None:
    ctx.write(f"Starting parallel pool (parpool) using the '{_profile_name(pool)}' profile ...\n"
              f"Connected to parallel pool with {pool.num_workers} workers.\n")


def _profile_name(pool: Any) -> str:
    return "Processes" if pool.kind == "local" else pool.kind


@builtin("parpool", category="parallel", nargin=(0, 3), nargout=(0, 1), needs_ctx=True)
def parpool(ctx: Any, *args: Any) -> Any:
    """Start a parallel pool of worker processes (Dask): ``parpool``,
    ``parpool(n)``, ``parpool('Processes', n)``, ``parpool('tcp://host:8786')``
    (join a running scheduler), ``parpool('slurm', n [, configFile])`` /
    ``'pbs'`` (workers through dask-jobqueue)."""
    from matfuse.parallel import pool as _pool

    workers = None
    address = None
    profile = None
    config = None
    rest = list(args)
    if rest and is_text(rest[0]):
        name = to_str(rest.pop(0))
        low = name.lower()
        if "://" in name:
            address = name
        elif low in ("slurm", "pbs", "sge", "lsf"):
            profile = low
        elif low not in ("local", "processes", "threads"):
            raise MatlabError("parallel:cluster:InvalidProfile",
                              f"The cluster profile '{name}' is not known: use 'Processes', "
                              f"'slurm', 'pbs', or a scheduler address 'tcp://host:port'.")
    if rest:
        workers = int_value(rest.pop(0), "parpool")
    if rest:
        if profile is None:
            raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
        config = text_arg(rest.pop(0), "parpool", "profile file")
    if profile is not None:
        from matfuse.parallel.profiles import jobqueue_cluster

        _pool.check_can_open(workers)

        pool = _pool.start_cluster(jobqueue_cluster(profile, workers, config), profile,
                                   workers or 1)
    else:
        pool = _pool.start(workers, address)
    _announce(ctx, pool)
    return pool


@builtin("gcp", category="parallel", nargin=(0, 1), nargout=(0, 1), needs_ctx=True)
def gcp(ctx: Any, option: Any = None) -> Any:
    """The current parallel pool; starts one unless ``gcp('nocreate')``
    (which returns ``[]`` when there is none)."""
    from matfuse.parallel import pool as _pool
    from matfuse.runtime.values import empty_double

    if option is not None and text_arg(option, "gcp", "option").lower() != "nocreate":
        raise MatlabError("MATLAB:gcp:invalidOption",
                          "The only option of gcp is 'nocreate'.")
    pool = _pool.current()
    if pool is not None:
        return pool
    if option is not None:
        return empty_double()
    pool = _pool.start()
    _announce(ctx, pool)
    return pool


def _function_text(fn: Any) -> str:
    if isinstance(fn, FunctionHandle):
        return fn.display_text()
    return to_str(fn)


@builtin("parfeval", category="parallel", nargin=(2, None), nargout=(0, 1), needs_ctx=True)
def parfeval(ctx: Any, *args: Any) -> Any:
    """``F = parfeval(fcn, numout, x1, ...)`` or ``parfeval(pool, fcn, ...)``:
    run ``fcn`` on a pool worker; with no pool it runs now, in this process."""
    from matfuse.parallel import pool as _pool
    from matfuse.parallel.futures import Future

    rest = list(args)
    pool = rest.pop(0) if isinstance(rest[0], _pool.Pool) else _pool.current()
    if len(rest) < 2:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    fn = rest.pop(0)
    if not isinstance(fn, FunctionHandle) and not is_text(fn):
        raise MatlabError("parallel:fevalqueue:InvalidFunction",
                          "The function to evaluate must be a function handle or a name.")
    nargout = int_value(rest.pop(0), "parfeval")
    fr = ctx.interp.frame
    future = Future(_function_text(fn), nargout, interp=ctx.interp, scope=fr.scope)
    if pool is None or not pool.connected:
        _run_here(ctx, future, fn, nargout, rest)
        return future
    from matfuse.parallel.distributed import submit_feval

    future.dask_future = submit_feval(pool, fr, fn if isinstance(fn, FunctionHandle)
                                      else FunctionHandle(name=to_str(fn), scope=fr.scope),
                                      nargout, rest)
    return future


def _run_here(ctx: Any, future: Any, fn: Any, nargout: int, args: list[Any]) -> None:
    import io

    from matfuse.parallel.stats import STATS

    STATS.fevals += 1
    interp = ctx.interp
    saved = interp.out
    interp.out = io.StringIO()
    try:
        target = fn if isinstance(fn, FunctionHandle) else to_str(fn)
        values = interp.call(target, list(args), nargout)
        if len(values) < nargout:
            raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
        future.finish_now(values[:nargout], None, interp.out.getvalue())
    except MatlabError as err:
        future.finish_now(None, err, interp.out.getvalue())
    finally:
        interp.out = saved


@builtin("fetchOutputs", category="parallel", nargin=(1, 3), nargout=(0, None),
         wants_nargout=True)
def fetch_outputs(f: Any, *options: Any, nargout: int = 1) -> Any:
    """Outputs of finished futures (waits for them); for an array, each
    output is the vertical concatenation over the futures."""
    from matfuse.parallel.futures import futures_of
    from matfuse.runtime._concat import cat_values

    futures = futures_of(f)
    results = [fut.fetch() for fut in futures]
    count = max(nargout, 1)
    if any(len(r) < count for r in results):
        raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
    if len(results) == 1:
        out = results[0][:count]
    else:
        out = [cat_values([r[k] for r in results], 0) for k in range(count)]
    if nargout == 0 and not out:
        return None
    return out[0] if len(out) == 1 else tuple(out)


@builtin("fetchNext", category="parallel", nargin=(1, 2), nargout=(0, None),
         wants_nargout=True)
def fetch_next(f: Any, timeout: Any = None, nargout: int = 1) -> Any:
    """``[idx, out1, ...] = fetchNext(F [, timeout])``: the index and outputs
    of the next unread future to finish (``idx`` empty after a timeout)."""
    from matfuse.parallel.futures import fetch_next as _next, futures_of
    from matfuse.runtime.values import empty_double

    limit = None if timeout is None else scalar_value(timeout, "fetchNext")
    got = _next(futures_of(f), limit)
    count = max(nargout, 1)
    if got is None:
        return tuple([empty_double()] * count) if count > 1 else empty_double()
    index, outputs = got
    values = [index] + list(outputs)
    if len(values) < count:
        raise MatlabError("MATLAB:TooManyOutputs", "Too many output arguments.")
    return values[0] if count == 1 else tuple(values[:count])


@builtin("cancel", category="parallel", nargin=(1, 1), nargout=(0, 0))
def cancel(f: Any) -> None:
    """Cancel futures that have not finished."""
    from matfuse.parallel.futures import futures_of

    for fut in futures_of(f):
        fut.cancel()


@builtin("afterEach", category="parallel", nargin=(3, 3), nargout=(0, 1), needs_ctx=True)
def after_each(ctx: Any, f: Any, fn: Any, nargout: Any) -> Any:
    """``G = afterEach(F, fcn, numout)``: run ``fcn`` on the client with the
    outputs of each future of F as it finishes; G's outputs are fcn's,
    in finishing order. fcn runs when G is waited on or fetched."""
    from matfuse.parallel.futures import AfterEachFuture, futures_of

    count = int_value(nargout, "afterEach")
    return AfterEachFuture(futures_of(f), fn, count, ctx.interp)
