"""Peers of pca.m: covariance by matmul, then block power iteration with QR.

The checksum (sum of the top-k Rayleigh quotients) is independent of the sign
conventions of QR, so all peers agree to rounding.
"""

from __future__ import annotations

from typing import Any, Callable


def _inputs(xp: Any, n: int, d: int, k: int, **arange_kw: Any) -> tuple[Any, Any]:
    i = xp.arange(1, n + 1, dtype=xp.float64, **arange_kw).reshape(n, 1)
    j = xp.arange(1, d + 1, dtype=xp.float64, **arange_kw).reshape(1, d)
    X = xp.sin(0.001 * i * j) + 0.5 * xp.cos(0.37 * i + 0.11 * j) + 0.01 * i / n
    kk = xp.arange(1, k + 1, dtype=xp.float64, **arange_kw).reshape(1, k)
    V = xp.cos(0.1 * j.reshape(d, 1) * kk)
    return X, V


def run_xp(xp: Any, n: float, d: float, k: float, iters: float, **_: Any) -> float:
    n, d, k = int(n), int(d), int(k)
    X, V = _inputs(xp, n, d, k)
    Xc = X - X.mean(axis=0, keepdims=True)
    C = (Xc.T @ Xc) / (n - 1)
    for _t in range(int(iters)):
        V, _r = xp.linalg.qr(C @ V)
    return float((V * (C @ V)).sum())


def make_torch(torch: Any, device: str, n: float, d: float, k: float, iters: float,
               **_: Any) -> Callable[[], Any]:
    n, d, k = int(n), int(d), int(k)

    def fn() -> Any:
        X, V = _inputs(torch, n, d, k, device=device)
        Xc = X - X.mean(dim=0, keepdim=True)
        C = (Xc.T @ Xc) / (n - 1)
        for _t in range(int(iters)):
            V, _r = torch.linalg.qr(C @ V)
        return (V * (C @ V)).sum()
    return fn


TORCH_COMPILE_NOTE = ("torch.compile of the covariance stage, of one power step and of the "
                      "Rayleigh sum; qr and the matmuls run as ATen calls inside them, the "
                      "iteration loop stays in Python")


def make_torch_compiled(torch: Any, device: str, n: float, d: float, k: float, iters: float,
                        **_: Any) -> Callable[[], Any]:
    n, d, k = int(n), int(d), int(k)

    @torch.compile
    def covariance() -> tuple[Any, Any]:
        X, V = _inputs(torch, n, d, k, device=device)
        Xc = X - X.mean(dim=0, keepdim=True)
        return (Xc.T @ Xc) / (n - 1), V

    @torch.compile
    def step(C: Any, V: Any) -> Any:
        return torch.linalg.qr(C @ V)[0]

    @torch.compile
    def rayleigh(C: Any, V: Any) -> Any:
        return (V * (C @ V)).sum()

    def fn() -> Any:
        C, V = covariance()
        for _t in range(int(iters)):
            V = step(C, V)
        return rayleigh(C, V)
    return fn


def ideal_bytes(n: float, d: float, k: float, iters: float, **_: Any) -> float:
    """X (f64) written once and read twice (column means, Gram product with the
    centring folded in); C read by every power step and the final quotient."""
    return 8.0 * (3 * n * d + d * d * (iters + 1))
