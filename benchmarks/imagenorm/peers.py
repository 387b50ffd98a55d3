"""Peers of imagenorm.m: per-image normalisation of a random image batch.

Random images differ between implementations, so parity is statistical.
"""

from __future__ import annotations

import math
from typing import Any, Callable

GAIN, BIAS, GAMMA, EPS0 = 1.5, 0.1, 0.8, 1e-6


def run_xp(xp: Any, B: float, H: float, W: float, **_: Any) -> float:
    rng = xp.random.default_rng(0)
    imgs = rng.random((int(B), int(H), int(W)), dtype=xp.float32)
    mu = imgs.mean(axis=(1, 2), keepdims=True)
    sigma = xp.sqrt(((imgs - mu) ** 2).mean(axis=(1, 2), keepdims=True) + EPS0)
    out = xp.maximum(((imgs - mu) / sigma) * GAIN + BIAS, 0) ** GAMMA
    return float(((out - imgs) ** 2).mean())


def make_torch(torch: Any, device: str, B: float, H: float, W: float,
               **_: Any) -> Callable[[], Any]:
    def fn() -> Any:
        imgs = torch.rand((int(B), int(H), int(W)), device=device, dtype=torch.float32)
        mu = imgs.mean(dim=(1, 2), keepdim=True)
        sigma = torch.sqrt(((imgs - mu) ** 2).mean(dim=(1, 2), keepdim=True) + EPS0)
        out = torch.clamp(((imgs - mu) / sigma) * GAIN + BIAS, min=0) ** GAMMA
        return ((out - imgs) ** 2).mean()
    return fn


def tolerance(B: float, H: float, W: float, **_: Any) -> float:
    """The checksum's relative spread is about 1.2/sqrt(pixels) (measured over
    seeds); allow ~4 standard deviations of the difference of two estimates."""
    return 7.0 / math.sqrt(B * H * W) + 1e-3


def ideal_bytes(B: float, H: float, W: float, **_: Any) -> float:
    """imgs (f32) written once, read twice (moments; normalise + error)."""
    return 12.0 * B * H * W
