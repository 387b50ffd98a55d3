"""Kernel plans: what the renderers produce and the providers run.

A :class:`KernelPlan` is backend-neutral (which nodes are read, written and
computed, the iteration space, the uniforms). A renderer turns it into a
:class:`RenderedKernel` (source text + binding layout + launch geometry),
which a provider's ``fused_elementwise``/``fused_reduction`` hook runs.

Binding layout of every rendered kernel (the contract with the providers):
group 0, bindings ``0..ni-1`` the input buffers (read-only storage, in
``inputs`` order), then ``no`` output buffers (read-write storage, in
``outputs`` order; the domain flag, when present, is the last output: one
``u32``), then one uniform buffer ``Params``::

    struct Params { h: array<vec4<u32>, H>, s: array<vec4<T>, K> }

``h[0].x`` is the thread count; the other header words hold Philox keys and
counters; ``s`` holds the scalar uniforms (T = the kernel's float type).
``pack_params()`` produces its bytes. WGSL kernels end ``Params`` with
``r: vec4<u32>`` (the range of a split dispatch, see ``SplitPlan``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from matfuse.accelerate.fusion.graph import FNode, INTEGER_IR
from matfuse.accelerate_api import SplitPlan

WORKGROUP_SIZE = 256
MAX_WORKGROUPS_PER_DIM = 65535


@dataclass(slots=True)
class KernelPlan:
    """One kernel to run.

    Attributes:
        kind: ``elementwise`` (one thread per element of ``shape``, grid-stride)
            or ``partial`` (reduction first pass over ``reduce_node``).
        shape: iteration space of an elementwise kernel.
        outputs: nodes written, each of shape ``shape`` (elementwise) or the
            ``reduce_node``'s prologue shape (extra outputs of a partial pass).
        reduce_node: for ``partial`` kernels, the reduction being computed.
        chunks: number of partial chunks P of a reduction (1: single pass).
        partial_of: reductions whose partial sums are inputs of this kernel,
            mapped to their chunk count.
    """

    kind: str
    shape: tuple[int, ...]
    outputs: list[FNode]
    reduce_node: FNode | None = None
    chunks: int = 1
    partial_of: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class RenderedKernel:
    """A backend kernel ready to run.

    Attributes:
        source: kernel source text (WGSL or CUDA C).
        entry_point: name of the entry function.
        workgroup_size: threads per workgroup (block).
        inputs: one entry per input binding: an FNode (bind its handle) or
            ``("partial", node_uid)`` for a reduction's partial buffer.
        outputs: (shape, numpy dtype name) per output binding, in order.
        output_nodes: the node each output materialises (None for partial
            buffers and the domain flag).
        threads: total threads to launch.
        header: u32 header words (``h``), ``header[0]`` is ``threads``.
        scalars: scalar uniforms (``s``).
        float_type: ``f32`` or ``f64`` (type of ``s``).
        has_flag: the last output is the domain flag.
        cache_key: hash of the source and layout.
        max_workgroups: cap of the 1-D grid of a grid-stride kernel (None:
            one thread per element).
        vector_width: elements per thread iteration loaded/stored as one
            vector (CUDA ``float4``/``double2``); the buffers must then be
            16-byte aligned.
        split: how the kernel may run over ranges of a tensor larger than
            one storage binding (WGSL kernels whose index math honours
            ``Params.r``); None: it runs whole only.
    """

    source: str
    entry_point: str
    workgroup_size: int
    inputs: list[object]
    outputs: list[tuple[tuple[int, ...], str]]
    output_nodes: list[FNode | None]
    threads: int
    header: list[int]
    scalars: list[float]
    float_type: str
    has_flag: bool
    cache_key: str = ""
    max_workgroups: int | None = None
    vector_width: int = 1
    split: SplitPlan | None = None

    def __post_init__(self) -> None:
        if not self.cache_key:
            self.cache_key = hashlib.sha256(self.source.encode()).hexdigest()[:32]

    def workgroups(self) -> tuple[int, int, int]:
        """Launch grid: 1-D up to 65535 groups, folded into 2-D above that."""
        groups = max(1, -(-self.threads // self.workgroup_size))
        if self.max_workgroups is not None:
            groups = min(groups, self.max_workgroups)
        if groups <= MAX_WORKGROUPS_PER_DIM:
            return (groups, 1, 1)
        rows = -(-groups // MAX_WORKGROUPS_PER_DIM)
        return (MAX_WORKGROUPS_PER_DIM, rows, 1)

    def pack_params(self) -> bytes:
        """Bytes of the ``Params`` uniform (header padded to 32 bytes, then scalars)."""
        header = list(self.header)
        while len(header) % 8 != 0:
            header.append(0)
        head = np.asarray(header, dtype=np.uint32).tobytes()
        scalars = list(self.scalars) or [0.0]
        while len(scalars) % 4 != 0:
            scalars.append(0.0)
        dt = np.float64 if self.float_type == "f64" else np.float32
        return head + np.asarray(scalars, dtype=dt).tobytes()


def numpy_dtype(dtype: str) -> str:
    """NumPy dtype name of an IR dtype (``f32``, ``f64``, ``bool``, ``i8``...)."""
    return _NUMPY_DTYPES[dtype]


_NUMPY_DTYPES = {"f32": "float32", "f64": "float64", "bool": "bool",
                 **{ir: name for name, ir in INTEGER_IR.items()}}


def numel(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def normalized_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    dims = list(shape)
    while len(dims) > 2 and dims[-1] == 1:
        dims.pop()
    return tuple(dims)


def plan_nodes(plan: KernelPlan) -> list[FNode]:
    """The plan's nodes in a deterministic order (post-order from its roots),
    not descending into reductions whose partials are read from a buffer."""
    seen: dict[int, FNode] = {}
    roots = list(plan.outputs)
    if plan.reduce_node is not None:
        roots.append(plan.reduce_node)
    for root in roots:
        stack: list[tuple[FNode, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if node.uid in seen:
                continue
            leaf = node.handle is not None or not node.args or node.uid in plan.partial_of
            if expanded or leaf:
                seen[node.uid] = node
                continue
            stack.append((node, True))
            for arg in reversed(node.args):
                if arg.uid not in seen:
                    stack.append((arg, False))
    return list(seen.values())
