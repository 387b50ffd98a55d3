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


def make_torch(torch: Any, device: str, n: float, c: float, L: float,
               **_: Any) -> Callable[[], Any]:
    n, c, L = int(n), int(c), int(L)
    F = torch.nn.functional

    def fn() -> Any:
        X, b = _signal(torch, n, c, L, device=device)
        # causal FIR = cross-correlation with the flipped taps after L-1 zeros
        x = F.pad(X.T.reshape(c, 1, n), (L - 1, 0))
        Y = F.conv1d(x, torch.flip(b, (0,)).reshape(1, 1, L)).reshape(c, n).T
        smooth = torch.tensor([0.25, 0.5, 0.25], dtype=torch.float64, device=device)
        Z = F.conv1d(Y.T.reshape(c, 1, n), smooth.reshape(1, 1, 3), padding=1).reshape(c, n).T
        spectrum = torch.fft.fft(Z, dim=0)
        P = spectrum[: n // 2].abs() ** 2 / n
        f = torch.arange(n // 2, dtype=torch.float64, device=device).reshape(-1, 1) * (FS / n)
        return ((P * f).sum(dim=0) / P.sum(dim=0)).sum() + P.sum() / n
    return fn
