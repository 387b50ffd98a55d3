"""The wgpu provider's ``accumulate`` hook (accumarray's combine step)."""

from __future__ import annotations

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.shaders import accumulate as ac


class AccumulateHooks(WgpuCore):
    def accumulate(self, op: str, index: GpuTensorHandle, values: GpuTensorHandle,
                   shape: tuple[int, ...], fill: float) -> GpuTensorHandle:
        """Combine ``values`` by ``index`` into a float64 tensor of ``shape``
        (see the protocol); sums are bitwise the host's ``np.add.at``.

        Raises:
            Unsupported: an op other than sum/max/min, data that is not
                float64, an adapter without f64, or more than
                ``MAX_PAIR_WORK`` index/position pairs to compare.
        """
        self.check(index)
        self.check(values)
        if op not in ("sum", "max", "min"):
            raise Unsupported(f"wgpu: accumulate {op}")
        if index.dtype != "float64" or values.dtype != "float64":
            raise Unsupported("wgpu: accumulate of data other than double")
        self.need_f64()
        n, total = numel(index.shape), numel(shape)
        if n != numel(values.shape):
            raise Unsupported("wgpu: accumulate needs one value per index")
        if n * total > ac.MAX_PAIR_WORK:
            raise Unsupported(f"wgpu: accumarray of {n} values into {total} elements "
                              f"(over {ac.MAX_PAIR_WORK} comparisons) runs on the host")
        with self.op("accumulate"):
            out = self.alloc(shape, "float64")
            if total:
                u = ac.params(n, total, float(fill))
                groups = self.groups(total)
                self.run(ac.render(op, u), 2, 1,
                         [self.bind(index), self.bind(values), self.bind(out)], u.pack(),
                         (min(groups[0], ac.MAX_GROUPS), 1, 1))
            return out
