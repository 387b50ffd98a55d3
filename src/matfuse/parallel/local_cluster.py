"""The local pool's Dask cluster: a ``SpecCluster`` of nanny-run workers
that does not close a worker's nanny while the nanny restarts it.

Dask's ``SpecCluster`` starts a timer (``distributed.deploy.lost-worker-timeout``,
15 s) each time the scheduler removes a worker; when it fires and no worker
of that name is registered *at that moment*, it closes the worker's nanny
for good. The timer is never cancelled when the worker comes back, so a
timer left by one restart (``cancel_tasks`` restarts busy workers) fires
during a later restart of the same worker, 15 s on, while its new process
has not registered yet: the nanny is closed, the pool loses the worker and
``restart_workers`` waits its whole timeout for a worker that never returns.

Here a worker registering again cancels the timers of its name, and a
removed worker is given as long to come back as a restart is
(``RESTART_TIMEOUT_S``): a nanny restarts its worker's process by itself,
so only a worker missing that long is lost.
"""

from __future__ import annotations

import asyncio
from typing import Any

from distributed import SpecCluster
from distributed.deploy.cluster import Cluster

# How long ``restart_workers`` may take for the local pool's workers (a
# generous one keeps the pool whole on a loaded machine).
RESTART_TIMEOUT_S = 300.0


class LocalPoolCluster(SpecCluster):
    """``SpecCluster`` whose lost-worker timers end when the worker returns."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._lost_timers: dict[Any, list[asyncio.TimerHandle]] = {}
        super().__init__(*args, **kwargs)

    def _update_worker_status(self, op: str, msg: Any) -> None:
        if op == "remove":
            name = self.scheduler_info["workers"][msg]["name"]
            timer = asyncio.get_running_loop().call_later(
                RESTART_TIMEOUT_S, self._close_if_still_lost, name, msg)
            self._lost_timers.setdefault(name, []).append(timer)
        elif op == "add":
            for info in msg.get("workers", {}).values():
                for timer in self._lost_timers.pop(info.get("name"), []):
                    timer.cancel()
        # SpecCluster's own handler only adds the uncancellable timer.
        Cluster._update_worker_status(self, op, msg)

    def _close_if_still_lost(self, name: Any, address: str) -> None:
        """Close worker ``name``'s nanny: no worker of that name registered
        within ``RESTART_TIMEOUT_S`` of its removal from ``address``."""
        # A name is removed again only after it registered again (which
        # cancelled its timers): this timer is the name's only one.
        self._lost_timers.pop(name, None)
        workers = self.scheduler_info["workers"]
        if (name in self.workers and address not in workers
                and not any(info["name"] == name for info in workers.values())):
            self._futures.add(asyncio.ensure_future(self.workers[name].close()))
            del self.workers[name]
