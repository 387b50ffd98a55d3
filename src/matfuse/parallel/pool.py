"""Parallel pools on Dask distributed: ``parpool``, ``gcp``, ``delete(pool)``.

* ``parpool`` / ``parpool(n)``: a local cluster of ``n`` single-threaded
  worker processes (default: the number of devices when the active provider
  gives each worker one, else the number of cores). Each worker then owns
  one device: the provider's ``capabilities.worker_device_variable``
  (``CUDA_VISIBLE_DEVICES``) names it.
* ``parpool('tcp://host:8786')`` or ``MATFUSE_DASK_SCHEDULER``: join a running
  scheduler.
* ``parpool('slurm', n)`` / ``parpool('pbs', n)``: start ``n`` workers through
  dask-jobqueue (``profiles.py`` builds the cluster's settings).

Dask is the ``matfuse[parallel]`` extra; without it ``parpool`` raises
``matfuse:parallel:daskMissing`` and ``parfor`` runs serially.
"""

from __future__ import annotations

import atexit
import logging
import os
from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.values import MObject, char_array

_CURRENT: "Pool | None" = None


def dask_missing() -> MatlabError:
    return MatlabError("matfuse:parallel:daskMissing",
                       "Parallel pools need Dask distributed: "
                       "pip install 'matfuse[parallel]'.")


def dask_available() -> bool:
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


class Pool(MObject):
    """A ``parallel.ProcessPool``: a Dask client and, for pools started
    here, the cluster it owns."""

    class_name = "parallel.ProcessPool"
    display_name = "ProcessPool"

    def __init__(self, client: Any, cluster: Any, kind: str, workers: int):
        self.client = client
        self.cluster = cluster
        self.kind = kind
        self.requested = workers
        self.connected = True

    @property
    def num_workers(self) -> int:
        if not self.connected:
            return 0
        return len(self.client.nthreads()) or self.requested

    def worker_addresses(self) -> list[str]:
        return sorted(self.client.nthreads())

    def property_names(self) -> list[str]:
        return ["NumWorkers", "Connected", "Cluster", "SpmdEnabled", "IdleTimeout"]

    def get_property(self, name: str) -> Any:
        if name == "NumWorkers":
            return float(self.num_workers)
        if name == "Connected":
            return self.connected
        if name == "Cluster":
            return char_array(self.kind)
        if name == "SpmdEnabled":
            return False
        if name == "IdleTimeout":
            return float("inf")
        return super().get_property(name)

    def delete(self) -> None:
        """Shut the pool down: its cluster's worker processes end."""
        global _CURRENT
        if not self.connected:
            return
        self.connected = False
        if _CURRENT is self:
            _CURRENT = None
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()


def current() -> Pool | None:
    """The open pool (``gcp('nocreate')``), or None."""
    return _CURRENT


WorkerDevices = tuple[str, list[str]]
"""(environment variable, device ids): worker k gets ids[k % len(ids)]."""


def _default_workers() -> tuple[int, WorkerDevices | None]:
    """(count, the workers' devices or None)."""
    devices = worker_devices()
    if devices is not None:
        return len(devices[1]), devices
    return os.cpu_count() or 1, None


def worker_devices() -> WorkerDevices | None:
    """The devices of this machine to give one per local worker, when the
    active provider declares how (``capabilities.worker_device_variable``)."""
    from matfuse.accelerate import facade

    state = facade.acceleration_state()
    if state is None:
        return None
    variable = state.provider.capabilities.worker_device_variable
    if variable is None:
        return None
    ids = [str(k) for k in range(state.provider.device_count())]
    return (variable, ids) if ids else None


def start(workers: int | None = None, address: str | None = None) -> Pool:
    """Open the session's pool (``parpool``): a local cluster, or the
    scheduler at ``address`` (default: ``MATFUSE_DASK_SCHEDULER``)."""
    check_can_open(workers)
    if address is None:
        from matfuse.accelerate.options import AccelerateInitOptions

        address = AccelerateInitOptions.from_env().dask_scheduler
    return _opened(_join(address, workers) if address is not None else _start_local(workers))


def start_cluster(cluster: Any, kind: str, workers: int) -> Pool:
    """Open the session's pool on a cluster object started elsewhere
    (dask-jobqueue, ``profiles.py``)."""
    check_can_open(workers)
    from distributed import Client

    return _opened(Pool(Client(cluster, set_as_default=False), cluster, kind, workers))


def check_can_open(workers: int | None) -> None:
    if _CURRENT is not None:
        raise MatlabError("parallel:convenience:ConnectionOpen",
                          "Found an interactive session. You cannot have multiple interactive "
                          "sessions open simultaneously. To terminate the existing session, "
                          "use delete(gcp('nocreate')).")
    if not dask_available():
        raise dask_missing()
    if workers is not None and workers < 1:
        raise MatlabError("parallel:cluster:InvalidNumWorkers",
                          "The number of workers must be a positive integer.")


def _opened(pool: Pool) -> Pool:
    """Register ``pool`` as the session's, once its workers are ready."""
    global _CURRENT
    from matfuse.parallel.distributed import accelerate_options
    from matfuse.parallel.worker import prepare

    pool.client.run(prepare, accelerate_options())
    _CURRENT = pool
    return pool


def local_worker_specs(n: int, devices: WorkerDevices | None) -> dict[int, dict[str, Any]]:
    """Dask worker specs of a local pool: ``n`` single-threaded processes;
    with ``devices`` (variable, ids), worker k sees only device
    ``ids[k % len(ids)]``."""
    from distributed import Nanny

    specs = {}
    for k in range(n):
        env = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
        if devices is not None:
            variable, ids = devices
            env[variable] = ids[k % len(ids)]
        specs[k] = {"cls": Nanny, "options": {"nthreads": 1, "env": env, "memory_limit": 0,
                                              "name": k, "silence_logs": logging.ERROR}}
    return specs


def _start_local(workers: int | None) -> Pool:
    import dask
    from distributed import Client, Scheduler

    from matfuse.parallel.local_cluster import LocalPoolCluster

    count, devices = _default_workers()
    n = workers if workers is not None else count
    # Workers inherit the configuration: their INFO logs would flood stderr;
    # the worker's statistical profiler (stack samples every 10 ms, for the
    # dashboard) only costs time in the interpreter's deep call stacks.
    dask.config.set({"logging": {"distributed": "error"},
                     "distributed.worker.profile.enabled": False})
    logging.getLogger("distributed").setLevel(logging.ERROR)
    scheduler = {"cls": Scheduler, "options": {"dashboard": False, "dashboard_address": ":0",
                                                "host": "127.0.0.1"}}
    try:
        cluster = LocalPoolCluster(workers=local_worker_specs(n, devices), scheduler=scheduler,
                                   silence_logs=logging.ERROR, name="matfuse")
    except (RuntimeError, OSError) as exc:
        raise MatlabError(
            "parallel:cluster:StartFailed",
            f"The parallel pool's worker processes did not start ({exc}). A Python "
            "program that opens a pool must do so under "
            "if __name__ == '__main__': (worker processes import the main module).") from None
    client = Client(cluster, set_as_default=False)
    client.wait_for_workers(n)
    return Pool(client, cluster, "local", n)


def _join(address: str, workers: int | None) -> Pool:
    from distributed import Client

    try:
        client = Client(address, set_as_default=False, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise MatlabError("parallel:cluster:ConnectionFailed",
                          f"Could not connect to the Dask scheduler at {address}: {exc}") from None
    if workers is not None:
        client.wait_for_workers(workers)
    return Pool(client, None, address, workers or 0)


def shutdown() -> None:
    """Close the pool at interpreter exit (no orphan worker processes)."""
    pool = _CURRENT
    if pool is not None:
        pool.delete()


atexit.register(shutdown)
