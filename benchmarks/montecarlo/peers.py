"""Peers of montecarlo.m: geometric Brownian motion, mean final price.

Random streams differ between implementations, so parity is statistical.
"""

from __future__ import annotations

import math
from typing import Any, Callable

S0, MU, SIGMA, DT = 100.0, 0.05, 0.2, 1.0 / 252


def run_xp(xp: Any, M: float, T: float, **_: Any) -> float:
    M = int(M)
    drift = (MU - 0.5 * SIGMA ** 2) * DT
    scale = SIGMA * math.sqrt(DT)
    rng = xp.random.default_rng(0)
    S = xp.full((M, 1), S0, dtype=xp.float32)
    for _t in range(int(T)):
        Z = rng.standard_normal((M, 1), dtype=xp.float32)
        S = S * xp.exp(xp.float32(drift) + xp.float32(scale) * Z)
    return float(S.mean())


def make_torch(torch: Any, device: str, M: float, T: float, **_: Any) -> Callable[[], Any]:
    drift = (MU - 0.5 * SIGMA ** 2) * DT
    scale = SIGMA * math.sqrt(DT)

    def fn() -> Any:
        S = torch.full((int(M), 1), S0, device=device, dtype=torch.float32)
        for _t in range(int(T)):
            Z = torch.randn((int(M), 1), device=device, dtype=torch.float32)
            S = S * torch.exp(drift + scale * Z)
        return S.mean()
    return fn


def tolerance(M: float, T: float, **_: Any) -> float:
    """Eight standard errors of the difference of two independent estimates."""
    rel_std = SIGMA * math.sqrt(T * DT) / math.sqrt(M)
    return 8 * math.sqrt(2) * rel_std + 1e-3


TORCH_COMPILE_NOTE = ("torch.compile of one time step (randn fused into the step kernel); "
                      "the T-step loop stays in Python: compiling it whole unrolls T steps")


def make_torch_compiled(torch: Any, device: str, M: float, T: float,
                        **_: Any) -> Callable[[], Any]:
    drift = (MU - 0.5 * SIGMA ** 2) * DT
    scale = SIGMA * math.sqrt(DT)

    @torch.compile
    def step(S: Any) -> Any:
        return S * torch.exp(drift + scale * torch.randn_like(S))

    def fn() -> Any:
        S = torch.full((int(M), 1), S0, device=device, dtype=torch.float32)
        for _t in range(int(T)):
            S = step(S)
        return S.mean()
    return fn


def ideal_bytes(M: float, T: float, **_: Any) -> float:
    """S (f32) kept in registers over all T steps (normals generated there):
    written once, read once by the mean."""
    return 8.0 * M
