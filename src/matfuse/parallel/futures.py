"""``parfeval`` futures: ``parallel.FevalFuture`` objects and arrays of them.

A future wraps a Dask future (on a pool) or, with no pool, the outcome of
running the call at once in this process. ``fetchOutputs``, ``fetchNext``,
``wait``, ``cancel`` and ``afterEach`` work on one future or an array
(``F(k) = parfeval(...)``).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import MObject, char_array, empty_double

_IDS = itertools.count(1)
CANCELLED_ID = "parallel:fevalqueue:ExecutionCancelled"


class Future(MObject):
    """One ``parfeval`` call."""

    class_name = "parallel.FevalFuture"
    display_name = "FevalFuture"

    def __init__(self, function_text: str, nargout: int, dask_future: Any = None,
                 interp: Any = None, scope: Any = None):
        self.id = next(_IDS)
        self.function_text = function_text
        self.nargout = nargout
        self.dask_future = dask_future
        self.interp = interp
        self.scope = scope
        self.outputs: list[Any] | None = None
        self.error: MatlabError | None = None
        self.diary = ""
        self.read = False
        self.callbacks: list[Any] = []

    # ---------------------------------------------------------- outcome
    def done(self) -> bool:
        if self.outputs is not None or self.error is not None:
            return True
        return self.dask_future is not None and self.dask_future.done()

    def settle(self, timeout: float | None = None) -> bool:
        """Wait for the outcome (at most ``timeout`` seconds); True when known."""
        if self.outputs is not None or self.error is not None:
            return True
        from distributed import TimeoutError as DaskTimeout
        from distributed.client import FutureCancelledError

        from matfuse.parallel.stats import STATS, size_of
        from matfuse.parallel.transport import decode, decode_error

        try:
            res = self.dask_future.result(timeout=timeout)
        except (DaskTimeout, TimeoutError):
            return False
        except FutureCancelledError:
            self.error = MatlabError(CANCELLED_ID, "Execution of the future was cancelled.")
            return True
        STATS.bytes_received += size_of(res)
        STATS.worker_done(res["worker"], res["seconds"])
        self.diary = res["text"]
        if res["ok"]:
            self.outputs = [decode(v, self.interp, self.scope) for v in res["outputs"]]
        else:
            self.error = decode_error(res["error"])
        self._run_callbacks()
        return True

    def finish_now(self, outputs: list[Any] | None, error: MatlabError | None,
                   diary: str = "") -> None:
        self.outputs, self.error, self.diary = outputs, error, diary

    def cancel(self) -> None:
        if self.done():
            return
        if self.dask_future is not None:
            from matfuse.parallel.distributed import cancel_tasks

            cancel_tasks(self.dask_future.client, [self.dask_future])
        self.error = MatlabError(CANCELLED_ID, "Execution of the future was cancelled.")

    def fetch(self) -> list[Any]:
        self.settle()
        self.read = True
        if self.error is not None:
            err = MatlabError("parallel:fevalqueue:ExecutionFailed",
                              f"One or more futures resulted in an error.\n"
                              f"{self.error.message}")
            err.cause = [self.error]
            raise err
        return list(self.outputs or [])

    def _run_callbacks(self) -> None:
        for fn in self.callbacks:
            fn(self)
        self.callbacks.clear()

    @property
    def state(self) -> str:
        if self.done():
            return "finished"
        status = getattr(self.dask_future, "status", "pending")
        return "queued" if status == "pending" else "running"

    # --------------------------------------------------------- properties
    def property_names(self) -> list[str]:
        return ["ID", "Function", "State", "Read", "Error", "Diary", "NumOutputArguments"]

    def get_property(self, name: str) -> Any:
        if name == "ID":
            return float(self.id)
        if name == "Function":
            return char_array(self.function_text)
        if name == "State":
            return char_array(self.state)
        if name == "Read":
            return self.read
        if name == "Error":
            if self.done():
                self.settle()
            return self.error if self.error is not None else empty_double()
        if name == "Diary":
            if self.done():
                self.settle()
            return char_array(self.diary)
        if name == "NumOutputArguments":
            return float(self.nargout)
        return super().get_property(name)

    @staticmethod
    def object_paren_assign(v: Any, idx: list, rhs: Any) -> Any:
        """``F(k) = future``: grows a FutureArray."""
        return FutureArray.assign(v, idx, rhs)


class FutureArray(MObject):
    """A row of futures (``F(k) = parfeval(...)``)."""

    class_name = "parallel.FevalFuture"
    display_name = "FevalFuture"

    def __init__(self, items: list[Future | None]):
        self.items = items

    @property
    def shape(self) -> tuple[int, ...]:
        return (1, len(self.items))

    @staticmethod
    def assign(v: Any, idx: list, rhs: Any) -> "FutureArray":
        if v is None or (isinstance(v, np.ndarray) and v.size == 0):
            items: list[Future | None] = []
        elif isinstance(v, FutureArray):
            items = list(v.items)
        elif isinstance(v, Future):
            items = [v]
        else:
            raise MatlabError("MATLAB:invalidConversion",
                              "Conversion to parallel.FevalFuture is not possible.")
        positions = _positions(idx, len(items))
        values = futures_of(rhs)
        if len(values) != 1 and len(values) != len(positions):
            raise MatlabError("MATLAB:subsassignnumelmismatch",
                              "Unable to perform assignment because the left and right "
                              "sides have a different number of elements.")
        for k, p in enumerate(positions):
            while len(items) < p:
                items.append(None)
            items[p - 1] = values[k if len(values) > 1 else 0]
        return FutureArray(items)

    def object_paren_assign(self, v: Any, idx: list, rhs: Any) -> Any:
        return FutureArray.assign(v, idx, rhs)

    def object_paren_get(self, idx: list) -> Any:
        positions = _positions(idx, len(self.items))
        picked = []
        for p in positions:
            if p > len(self.items):
                raise MatlabError("MATLAB:badsubscript",
                                  f"Index exceeds the number of array elements. Index must "
                                  f"not exceed {len(self.items)}.")
            picked.append(self.items[p - 1])
        return picked[0] if len(picked) == 1 else FutureArray(picked)

    def get_property(self, name: str) -> Any:
        if len(self.items) == 1 and self.items[0] is not None:
            return self.items[0].get_property(name)
        return super().get_property(name)


def _positions(idx: list, count: int) -> list[int]:
    from matfuse.runtime.indexing import COLON

    if len(idx) == 2:
        first = np.asarray(idx[0], dtype=float).reshape(-1)
        if first.size != 1 or first[0] != 1:
            raise MatlabError("MATLAB:badsubscript", "Future arrays are row vectors.")
        idx = [idx[1]]
    if len(idx) != 1:
        raise MatlabError("MATLAB:badsubscript", "Future arrays take one or two subscripts.")
    if idx[0] is COLON:
        return list(range(1, count + 1))
    raw = np.asarray(idx[0]).reshape(-1)
    if raw.dtype == np.bool_:
        return [int(k) + 1 for k in np.flatnonzero(raw)]
    arr = raw.astype(float)
    if np.any(arr < 1) or np.any(arr != np.round(arr)):
        raise MatlabError("MATLAB:badsubscript",
                          "Array indices must be positive integers or logical values.")
    return [int(k) for k in arr]


def futures_of(value: Any) -> list[Future]:
    """The futures of a FevalFuture or an array of them (errors otherwise)."""
    if isinstance(value, Future):
        return [value]
    if isinstance(value, FutureArray):
        if any(f is None for f in value.items):
            raise MatlabError("parallel:fevalqueue:InvalidFuture",
                              "The future array has unassigned elements.")
        return list(value.items)
    raise MatlabError("MATLAB:UndefinedFunction",
                      "Expected a parallel.FevalFuture (from parfeval).")


def fetch_next(futures: list[Future], timeout: float | None) -> tuple[float, list[Any]] | None:
    """(1-based index, outputs) of an unread finished future, waiting up to
    ``timeout`` seconds; None when none finished in time."""
    pending = [k for k, f in enumerate(futures) if not f.read]
    if not pending:
        raise MatlabError("parallel:fevalqueue:NoUnreadFutures",
                          "There are no unread futures to fetch.")
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        for k in pending:
            f = futures[k]
            if f.done():
                return float(k + 1), f.fetch()
        if deadline is not None and time.monotonic() >= deadline:
            return None
        time.sleep(0.005)


def wait_all(futures: list[Future], timeout: float | None) -> bool:
    deadline = None if timeout is None else time.monotonic() + timeout
    for f in futures:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not f.settle(left):
            return False
    return True


class AfterEachFuture(Future):
    """``afterEach(F, fcn, n)``: ``fcn`` runs on the client for each future
    of F in finishing order, when this future is waited on or fetched."""

    def __init__(self, sources: list[Future], fn: Any, nargout: int, interp: Any):
        text = fn.display_text() if hasattr(fn, "display_text") else str(fn)
        super().__init__(text, nargout, interp=interp)
        self.sources = sources
        self.fn = fn

    def done(self) -> bool:
        return self.outputs is not None or self.error is not None

    def settle(self, timeout: float | None = None) -> bool:
        if self.done():
            return True
        if not wait_all(self.sources, timeout):
            return False
        from matfuse.runtime._concat import cat_values

        rows: list[list[Any]] = []
        try:
            for f in self.sources:
                if f.error is not None:
                    continue
                values = self.interp.call(self.fn, list(f.outputs or []), self.nargout)
                rows.append(values[:self.nargout])
            self.outputs = [cat_values([r[k] for r in rows], 0) if rows else empty_double()
                            for k in range(self.nargout)]
        except MatlabError as err:
            self.error = err
        return True

    def cancel(self) -> None:
        if not self.done():
            self.error = MatlabError(CANCELLED_ID, "Execution of the future was cancelled.")
