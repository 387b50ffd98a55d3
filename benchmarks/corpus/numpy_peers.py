"""NumPy versions of corpus loops that have no PyTorch peer module: the same
loop a NumPy user writes, for the GPU table's "no slower than NumPy" rows."""

from __future__ import annotations

import numpy as np


def rowblock_fill(B: int, H: int, W: int, rb: int) -> float:
    """``imagenorm_rowblock_fill.m`` on NumPy: fill a single-precision image
    batch row block by row block from host chunks, then subtract each image's
    mean; returns the same checksum as the script."""
    imgs = np.zeros((B, H, W), dtype=np.float32)
    for b in range(1, B + 1):
        for r0 in range(1, H + 1, rb):
            rows = np.arange(r0, min(r0 + rb - 1, H) + 1)
            k = np.arange(1, rows.size * W + 1, dtype=np.float64)
            chunk = (np.mod(k + b + r0, 17).reshape((rows.size, W), order="F")
                     .astype(np.float32) / np.float32(17))
            imgs[b - 1, rows - 1, :] = chunk
    mu = imgs.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
    out = imgs - mu
    return float(np.abs(out).sum(dtype=np.float64))
