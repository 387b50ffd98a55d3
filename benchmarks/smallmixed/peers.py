"""Peers of smallmixed.m: the same scalar loop over tiny arrays.

On a GPU peer every tiny operation is a kernel launch; that is the cost that
matfuse's automatic offload must avoid.
"""

from __future__ import annotations

import math
from typing import Any, Callable

STEP = (0.01, -0.02, 0.005)


def run_xp(xp: Any, iters: float, **_: Any) -> float:
    acc = 0.0
    v = xp.zeros(16)
    p = xp.array([1.0, 2.0, 3.0])
    step = xp.array(STEP)
    base = xp.linspace(0, 1, 8)
    for k in range(1, int(iters) + 1):
        a = 0.001 * k
        R = xp.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0],
                      [0.0, 0.0, 1.0]])
        p = R @ p + step
        slot = k % 16
        v[slot] += xp.linalg.norm(p)
        w = base * a
        if float(p.max()) > 2:
            acc += float((w ** 2).sum()) / k
        else:
            acc -= float(p.min()) * float(w.mean())
    return float(acc + v.sum() + p.sum())


def make_torch(torch: Any, device: str, iters: float, **_: Any) -> Callable[[], Any]:
    def fn() -> Any:
        acc = 0.0
        kw = {"device": device, "dtype": torch.float64}
        v = torch.zeros(16, **kw)
        p = torch.tensor([1.0, 2.0, 3.0], **kw)
        step = torch.tensor(STEP, **kw)
        base = torch.linspace(0, 1, 8, **kw)
        for k in range(1, int(iters) + 1):
            a = 0.001 * k
            R = torch.tensor([[math.cos(a), -math.sin(a), 0.0],
                              [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]], **kw)
            p = R @ p + step
            v[k % 16] += torch.linalg.norm(p)
            w = base * a
            if float(p.max()) > 2:
                acc += float((w ** 2).sum()) / k
            else:
                acc -= float(p.min()) * float(w.mean())
        return acc + v.sum() + p.sum()
    return fn
