"""Peers of signal.m: causal FIR filter, 3-tap smoothing, FFT power spectrum."""

from __future__ import annotations

import math
from typing import Any, Callable

FS = 8000.0


def _signal(xp: Any, n: int, c: int, L: int, **kw: Any) -> tuple[Any, Any]:
    t = (xp.arange(n, dtype=xp.float64, **kw) / FS).reshape(n, 1)
    ch = xp.arange(1, c + 1, dtype=xp.float64, **kw).reshape(1, c)
    X = (xp.sin(2 * math.pi * (50 * ch) * t) + 0.5 * xp.cos(2 * math.pi * (120 + 7 * ch) * t)
         + 0.1 * xp.sin(2 * math.pi * 300 * t ** 2))
    taps = xp.arange(L, dtype=xp.float64, **kw)
    b = 0.54 - 0.46 * xp.cos(2 * math.pi * taps / (L - 1))
    return X, b / b.sum()


def _fir(xp: Any, b: Any, X: Any) -> Any:
    """filter(b, 1, X) along columns, with the library's own IIR/FIR filter."""
    if xp.__name__ == "cupy":
        from cupyx.scipy.signal import lfilter
    else:
        from scipy.signal import lfilter
    return lfilter(b, xp.ones(1), X, axis=0)


def _smooth3(xp: Any, Y: Any) -> Any:
    """conv2(Y, [0.25; 0.5; 0.25], 'same'): zero padding at both ends."""
    Z = 0.5 * Y
    Z[1:] += 0.25 * Y[:-1]
    Z[:-1] += 0.25 * Y[1:]
    return Z


def _spectrum_checksum(xp: Any, Z: Any, n: int) -> Any:
    F = xp.fft.fft(Z, axis=0)
    P = xp.abs(F[: n // 2]) ** 2 / n
    f = xp.arange(n // 2, dtype=xp.float64).reshape(-1, 1) * (FS / n)
    centroid = (P * f).sum(axis=0) / P.sum(axis=0)
    return centroid.sum() + P.sum() / n


def run_xp(xp: Any, n: float, c: float, L: float, **_: Any) -> float:
    n, c, L = int(n), int(c), int(L)
    X, b = _signal(xp, n, c, L)
    return float(_spectrum_checksum(xp, _smooth3(xp, _fir(xp, b, X)), n))


def _torch_filtered(torch: Any, device: str, n: int, c: int, L: int) -> Any:
    """Signal, causal FIR (cross-correlation with the flipped taps after L-1
    zeros) and the 3-tap smoothing, as conv1d over the channels."""
    F = torch.nn.functional
    X, b = _signal(torch, n, c, L, device=device)
    x = F.pad(X.T.reshape(c, 1, n), (L - 1, 0))
    Y = F.conv1d(x, torch.flip(b, (0,)).reshape(1, 1, L)).reshape(c, n).T
    smooth = torch.tensor([0.25, 0.5, 0.25], dtype=torch.float64, device=device)
    return F.conv1d(Y.T.reshape(c, 1, n), smooth.reshape(1, 1, 3), padding=1).reshape(c, n).T


def _torch_centroids(torch: Any, device: str, P: Any, n: int) -> Any:
    f = torch.arange(n // 2, dtype=torch.float64, device=device).reshape(-1, 1) * (FS / n)
    return ((P * f).sum(dim=0) / P.sum(dim=0)).sum() + P.sum() / n


def make_torch(torch: Any, device: str, n: float, c: float, L: float,
               **_: Any) -> Callable[[], Any]:
    n, c, L = int(n), int(c), int(L)

    def fn() -> Any:
        spectrum = torch.fft.fft(_torch_filtered(torch, device, n, c, L), dim=0)
        P = spectrum[: n // 2].abs() ** 2 / n
        return _torch_centroids(torch, device, P, n)
    return fn


TORCH_COMPILE_NOTE = ("torch.compile of the real-valued stages (signal, FIR and smoothing; "
                      "power spectrum and centroids on view_as_real); the complex FFT runs "
                      "eagerly between the two compiled graphs")


def make_torch_compiled(torch: Any, device: str, n: float, c: float, L: float,
                        **_: Any) -> Callable[[], Any]:
    n, c, L = int(n), int(c), int(L)

    @torch.compile
    def filtered() -> Any:
        return _torch_filtered(torch, device, n, c, L)

    @torch.compile
    def centroids(parts: Any) -> Any:   # parts: (n/2, c, 2) real and imaginary
        return _torch_centroids(torch, device, (parts ** 2).sum(dim=-1) / n, n)

    def fn() -> Any:
        spectrum = torch.fft.fft(filtered(), dim=0)
        return centroids(torch.view_as_real(spectrum[: n // 2]))
    return fn
