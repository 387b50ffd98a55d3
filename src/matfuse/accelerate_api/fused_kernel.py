"""What a provider reads of a generated kernel (``fused_elementwise`` /
``fused_reduction``): the fusion engine's ``RenderedKernel`` satisfies it.

Providers import only this layer, so the contract is written here as a
protocol rather than as the fusion engine's class.
"""

from __future__ import annotations

from typing import Protocol

from matfuse.accelerate_api._types import SplitPlan


class FusedKernel(Protocol):
    """A backend kernel ready to run.

    Attributes:
        source: kernel source text in the provider's ``kernel_language``.
        entry_point: name of the entry function.
        workgroup_size: threads per workgroup (CUDA block).
        threads: total threads to launch (0: nothing to run).
        header: u32 header words of the uniform; ``header[0]`` is ``threads``.
        float_type: ``f32`` or ``f64``, the type of the scalar uniforms.
        has_flag: the last output is the domain flag (cleared before the run).
        cache_key: hash of the source and layout (the pipeline cache's key).
        max_workgroups: cap of a grid-stride kernel's 1-D grid, or None.
        vector_width: elements per thread iteration loaded as one vector
            (the buffers must then be 16-byte aligned).
        split: how the kernel may run over ranges of a tensor larger than one
            storage binding, or None.
    """

    source: str
    entry_point: str
    workgroup_size: int
    threads: int
    header: list[int]
    float_type: str
    has_flag: bool
    cache_key: str
    max_workgroups: int | None
    vector_width: int
    split: SplitPlan | None

    def workgroups(self) -> tuple[int, int, int]:
        """The launch grid."""

    def pack_params(self) -> bytes:
        """Bytes of the kernel's ``Params`` uniform (header, then scalars)."""
