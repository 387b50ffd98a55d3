"""Peer implementations of the benchmark workloads (NumPy, PyTorch, CuPy).

Every function takes the workload parameters and returns a checksum computed
from the result (so no implementation can skip the work). ``xp`` is the array
module (numpy or cupy); torch versions take the device.
"""

from __future__ import annotations

import math
from typing import Any, Callable


# ------------------------------------------------------------------ array-API style (numpy, cupy)
def elementwise_xp(xp: Any, n: int, **_: Any) -> float:
    x = xp.linspace(0, 4 * math.pi, int(n)).astype(xp.float32)
    y0 = xp.sin(x) * xp.exp(-x / 10)
    y1 = y0 * xp.cos(x / 4) + 0.25 * y0 ** 2
    y2 = xp.tanh(y1) + 0.1 * y1
    return float(y2.sum())


def montecarlo_xp(xp: Any, M: int, T: int, **_: Any) -> float:
    M = int(M)
    S0, mu, sigma, dt = 100.0, 0.05, 0.2, 1.0 / 252
    drift = (mu - 0.5 * sigma ** 2) * dt
    scale = sigma * math.sqrt(dt)
    rng = xp.random.default_rng(0) if hasattr(xp.random, "default_rng") else xp.random
    S = xp.full((M, 1), S0, dtype=xp.float32)
    for _t in range(int(T)):
        Z = rng.standard_normal((M, 1), dtype=xp.float32)
        S = S * xp.exp(xp.float32(drift) + xp.float32(scale) * Z)
    return float(S.mean())


def imagenorm_xp(xp: Any, B: int, H: int, W: int, **_: Any) -> float:
    rng = xp.random.default_rng(0) if hasattr(xp.random, "default_rng") else xp.random
    imgs = rng.random((int(B), int(H), int(W)), dtype=xp.float32)
    gain, bias, gamma, eps0 = 1.5, 0.1, 0.8, 1e-6
    mu = imgs.mean(axis=(1, 2), keepdims=True)
    sigma = xp.sqrt(((imgs - mu) ** 2).mean(axis=(1, 2), keepdims=True) + eps0)
    out = xp.maximum(((imgs - mu) / sigma) * gain + bias, 0) ** gamma
    return float(((out - imgs) ** 2).mean())


# ------------------------------------------------------------------ torch
def elementwise_torch(torch: Any, device: str, n: int, **_: Any) -> Callable[[], Any]:
    def fn() -> Any:
        x = torch.linspace(0, 4 * math.pi, int(n), device=device, dtype=torch.float32)
        y0 = torch.sin(x) * torch.exp(-x / 10)
        y1 = y0 * torch.cos(x / 4) + 0.25 * y0 ** 2
        y2 = torch.tanh(y1) + 0.1 * y1
        return y2.sum()
    return fn


def montecarlo_torch(torch: Any, device: str, M: int, T: int, **_: Any) -> Callable[[], Any]:
    S0, mu, sigma, dt = 100.0, 0.05, 0.2, 1.0 / 252
    drift = (mu - 0.5 * sigma ** 2) * dt
    scale = sigma * math.sqrt(dt)

    def fn() -> Any:
        S = torch.full((int(M), 1), S0, device=device, dtype=torch.float32)
        for _t in range(int(T)):
            Z = torch.randn((int(M), 1), device=device, dtype=torch.float32)
            S = S * torch.exp(drift + scale * Z)
        return S.mean()
    return fn


def imagenorm_torch(torch: Any, device: str, B: int, H: int, W: int, **_: Any) -> Callable[[], Any]:
    gain, bias, gamma, eps0 = 1.5, 0.1, 0.8, 1e-6

    def fn() -> Any:
        imgs = torch.rand((int(B), int(H), int(W)), device=device, dtype=torch.float32)
        mu = imgs.mean(dim=(1, 2), keepdim=True)
        sigma = torch.sqrt(((imgs - mu) ** 2).mean(dim=(1, 2), keepdim=True) + eps0)
        out = torch.clamp(((imgs - mu) / sigma) * gain + bias, min=0) ** gamma
        return ((out - imgs) ** 2).mean()
    return fn


XP_IMPLS = {"elementwise": elementwise_xp, "montecarlo": montecarlo_xp, "imagenorm": imagenorm_xp}
TORCH_IMPLS = {"elementwise": elementwise_torch, "montecarlo": montecarlo_torch,
               "imagenorm": imagenorm_torch}
