"""Peers of stats.m: zscore, covariance and histogram counts."""

from __future__ import annotations

from typing import Any, Callable


def _inputs(xp: Any, n: int, d: int, **kw: Any) -> Any:
    i = xp.arange(1, n + 1, dtype=xp.float64, **kw).reshape(n, 1)
    j = xp.arange(1, d + 1, dtype=xp.float64, **kw).reshape(1, d)
    return xp.sin(0.7 * i + j) * (1 + j / d) + xp.cos(1e-4 * i * j) ** 3


def run_xp(xp: Any, n: float, d: float, nbins: float, **_: Any) -> float:
    n, d, nbins = int(n), int(d), int(nbins)
    X = _inputs(xp, n, d)
    Z = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)
    C = xp.cov(Z, rowvar=False)
    # MATLAB's Z(:) is column-major; histogram counts do not depend on order
    counts, _edges = xp.histogram(Z, bins=xp.linspace(-4, 4, nbins + 1))
    weights = xp.arange(1, nbins + 1)
    return float((C ** 2).sum() + (counts * weights).sum() / Z.size)


def make_torch(torch: Any, device: str, n: float, d: float, nbins: float,
               **_: Any) -> Callable[[], Any]:
    n, d, nbins = int(n), int(d), int(nbins)

    def fn() -> Any:
        X = _inputs(torch, n, d, device=device)
        Z = (X - X.mean(dim=0)) / X.std(dim=0, correction=1)
        C = torch.cov(Z.T)
        # like histcounts, torch.histc ignores values outside [min, max] and
        # counts the top edge into the last bin
        counts = torch.histc(Z, bins=nbins, min=-4.0, max=4.0)
        weights = torch.arange(1, nbins + 1, device=device, dtype=counts.dtype)
        return (C ** 2).sum() + (counts * weights).sum() / Z.numel()
    return fn


TORCH_COMPILE_NOTE = ("torch.compile of the inputs, zscore and covariance; histc runs eagerly "
                      "on the compiled result")


def make_torch_compiled(torch: Any, device: str, n: float, d: float, nbins: float,
                        **_: Any) -> Callable[[], Any]:
    n, d, nbins = int(n), int(d), int(nbins)

    @torch.compile
    def zscore_cov() -> tuple[Any, Any]:
        X = _inputs(torch, n, d, device=device)
        Z = (X - X.mean(dim=0)) / X.std(dim=0, correction=1)
        return Z, (torch.cov(Z.T) ** 2).sum()

    def fn() -> Any:
        Z, c2 = zscore_cov()
        counts = torch.histc(Z, bins=nbins, min=-4.0, max=4.0)
        weights = torch.arange(1, nbins + 1, device=device, dtype=counts.dtype)
        return c2 + (counts * weights).sum() / Z.numel()
    return fn


def ideal_bytes(n: float, d: float, nbins: float, **_: Any) -> float:
    """X (f64) written once, read twice (moments; zscore fused into the
    covariance and the histogram)."""
    return 24.0 * n * d
