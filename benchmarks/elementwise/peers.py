"""Peers of elementwise.m: a single-precision elementwise chain, summed."""

from __future__ import annotations

import math
from typing import Any, Callable


def run_xp(xp: Any, n: float, **_: Any) -> float:
    """NumPy / CuPy: returns the checksum."""
    x = xp.linspace(0, 4 * math.pi, int(n)).astype(xp.float32)
    y0 = xp.sin(x) * xp.exp(-x / 10)
    y1 = y0 * xp.cos(x / 4) + 0.25 * y0 ** 2
    y2 = xp.tanh(y1) + 0.1 * y1
    return float(y2.sum())


def make_torch(torch: Any, device: str, n: float, **_: Any) -> Callable[[], Any]:
    """PyTorch: a function returning the checksum tensor (compilable)."""
    def fn() -> Any:
        x = torch.linspace(0, 4 * math.pi, int(n), device=device, dtype=torch.float32)
        y0 = torch.sin(x) * torch.exp(-x / 10)
        y1 = y0 * torch.cos(x / 4) + 0.25 * y0 ** 2
        y2 = torch.tanh(y1) + 0.1 * y1
        return y2.sum()
    return fn


def ideal_bytes(n: float, **_: Any) -> float:
    """x is generated inside the kernel and only the sum leaves it: the scalar."""
    return 4.0
