"""Print the worst f64 cases of a few functions on the present adapter
(diagnostics for driver differences; not part of the test suite)."""

from __future__ import annotations

import numpy as np

from matfuse.accelerate.providers.wgpu import WgpuProvider
from matfuse.accelerate_api import HostTensor


def run(p, op, x, y=None):
    a = p.upload(HostTensor.from_array(x.reshape(-1, 1)))
    if y is None:
        r = p.elem_unary(op, a, "float64")
    else:
        b = p.upload(HostTensor.from_array(y.reshape(-1, 1)))
        r = p.elem_binary(op, a, b, "float64")
    return p.download(r).data


def main() -> None:
    p = WgpuProvider()
    print(p.device_info(), p.device_info_struct().extra)
    sp = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 710.0, -750.0, 0.3, 30.0])
    for op, f in (("sinh", np.sinh), ("cosh", np.cosh), ("exp", np.exp), ("expm1", np.expm1)):
        with np.errstate(all="ignore"):
            print(op, run(p, op, sp), f(sp))
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-710, 710, 2000), rng.uniform(-1, 1, 2000)])
    for op, f in (("cosh", np.cosh), ("sinh", np.sinh)):
        with np.errstate(all="ignore"):
            g, w = run(p, op, x), f(x)
        e = np.abs(g - w) / np.abs(w)
        i = np.nanargmax(e)
        print(op, "max", e[i], x[i], g[i], w[i])
    xx, yy = 10 ** rng.uniform(-3, 3, 4000), rng.uniform(-50, 50, 4000)
    g, w = run(p, "power", xx, yy), xx ** yy
    e = np.abs(g - w) / np.abs(w)
    i = np.nanargmax(e)
    print("pow max", e[i], xx[i], yy[i], g[i], w[i])
    d = np.array([[np.nan, 1.0, 2.0], [np.nan, np.nan, np.nan], [3.0, -1.0, 5.0], [0.5, 7.0, np.nan]])
    h = p.upload(HostTensor.from_array(d))
    for dims in ((0,), (1,)):
        r = p.reduce("max", h, dims, True, "float64")
        print("max omitnan", dims, p.download(r).to_array().ravel(), np.nanmax(d, axis=dims[0]))
        r = p.reduce("min", h, dims, True, "float64")
        print("min omitnan", dims, p.download(r).to_array().ravel(), np.nanmin(d, axis=dims[0]))
    r = p.elem_binary("max", h, 0.0, "float64")
    print("elementwise max", p.download(r).to_array().ravel())


if __name__ == "__main__":
    main()
