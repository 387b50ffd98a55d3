"""Statistics hooks of the wgpu provider: ``histogram`` (histcounts)."""

from __future__ import annotations

from matfuse.accelerate_api import GpuTensorHandle, Unsupported
from matfuse.accelerate.providers.wgpu.core import WgpuCore, numel
from matfuse.accelerate.providers.wgpu.shaders import histogram as hg


class StatsHooks(WgpuCore):
    def histogram(self, x: GpuTensorHandle, edges: GpuTensorHandle) -> GpuTensorHandle:
        """Counts of ``x`` in the bins of ``edges`` (see the protocol).

        Counts accumulate as u32 (at most 2^32 - 1 elements per call, far
        past the storage binding limit) and are converted to float64 at the
        end.

        Raises:
            Unsupported: non-float data, edges that are not float64, fewer
                than two edges, or an adapter without f64.
        """
        self.check(x)
        self.check(edges)
        if x.dtype not in ("float32", "float64") or edges.dtype != "float64":
            raise Unsupported("wgpu: histogram of non-float data or edges")
        self.need_f64()      # edges and comparisons in double, as the CPU
        ne = numel(edges.shape)
        if ne < 2:
            raise Unsupported("wgpu: histogram needs at least two edges")
        nb, n = ne - 1, numel(x.shape)
        with self.op("histogram"):
            bins = self.fill((1, nb), 0.0, "uint32")
            try:
                if n:
                    u = hg.params(n, ne)
                    groups = self.groups(n)
                    self.run(hg.render(x.dtype, nb <= hg.LOCAL_BINS, u), 2, 1,
                             [self.bind(x), self.bind(edges), self.bind(bins)], u.pack(),
                             (min(groups[0], hg.MAX_GROUPS), 1, 1))
                return self.cast(bins, "float64")
            finally:
                self.release(bins)
