"""Upload/download helpers of the provider tests."""

from __future__ import annotations

import numpy as np

from matfuse.accelerate_api import HostTensor


def up(p, arr):
    return p.upload(HostTensor.from_array(np.asarray(arr)))


def down(p, h, free=True):
    try:
        return p.download(h).to_array()
    finally:
        if free:
            p.free(h)
