"""The order of a scatter's writes at device subscripts: MATLAB writes a
repeated subscript's values in subscript order, so the last one stays; a
parallel scatter promises no order, so the distinct positions and their
last values are found first (a stable device sort)."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.gpuarray import GpuArray
from matfuse.accelerate.router.compose_ops import LIKE, call, op
from matfuse.accelerate.router.device_subscripts import gather_at
from matfuse.accelerate.router.mask_index import mask_positions


def last_writes(positions: GpuArray, values: Any) -> tuple[GpuArray, Any]:
    """The distinct ``positions`` (int32) of a scatter and, for each, the
    last of its ``values`` (one per position, in subscript order): a stable
    sort of the positions, then the last element of each run of equal ones
    (one count read back)."""
    count = positions.numel
    column = call("reshape", call("double", positions), float(count), 1.0)
    ordered, order = call("sort", column, nargout=2)
    # each sorted position against the next one (NaN after the last)
    padded = call("vertcat", ordered, float("nan"))
    following = call("cumsum", call("ones", float(count), 1.0, LIKE, column))
    last = op("~=", ordered, gather_at(padded, call("int32", following), (count, 1)))
    keep = mask_positions(positions.provider, last)
    kept = keep.numel
    source = values if isinstance(values, GpuArray) else \
        call("gpuArray", np.asarray(values).reshape(-1, 1, order="F"))
    chosen = gather_at(call("reshape", source, float(count), 1.0),
                       call("int32", op("-", gather_at(order, keep, (kept, 1)), 1.0)), (kept, 1))
    return call("int32", gather_at(ordered, keep, (kept, 1))), chosen
