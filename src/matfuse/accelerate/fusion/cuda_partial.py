"""Partial passes of reductions in generated CUDA C (a mixin of the CUDA
emitter, ``render_cuda._Emitter``).

Thread ``g = c*(A*P) + a + A*p`` (with lanes: a group of outputs or of
consecutive elements) accumulates chunk rows ``r = p, p+P, ...`` of output
(a, c). Partial p of output (a, c) is stored at ``a + A*(p + P'*c)`` with
P' = ``partials_per_output(A, P)``; the final pass reads that layout. When
``block_folds`` allows it, each 256-thread block folds its accumulators
(warp shuffles, then shared memory across warps), so P' = A*P/256: the
elementwise benchmark's partial pass writes 1024 partials instead of 2^18.

The emitter provides ``emit``/``let_u``/``value``/``convert``/``combine``/
``reduce_init``/``type_name``/``fresh``, ``plan``, ``ftype``, ``unroll``,
``memo``, ``vector_lanes``/``vector_index``, and ``prologue`` (lines before
the grid-stride loop, where the shared arrays are declared).
"""

from __future__ import annotations

from matfuse.accelerate.fusion.graph import FNode
from matfuse.accelerate.fusion.kernel import WORKGROUP_SIZE

#: threads of a warp (the shuffles' unit)
WARP_SIZE = 32

#: first line of a kernel whose threads cooperate across the block (partial
#: passes that fold): correct only when launched as whole blocks of
#: WORKGROUP_SIZE threads (the CPU test harness looks for it)
BLOCK_FOLD_MARKER = "// matfuse: block fold, launch whole blocks"


def block_folds(a_ext: int, chunks: int) -> bool:
    """Whether a partial pass folds its threads' accumulators across each
    block, leaving ``a_ext * chunks / WORKGROUP_SIZE`` partials per output
    instead of ``chunks`` (the elementwise benchmark's final pass read 2^18
    partials: 0.05 ms on the H100). Needs A a power of two <= the block and
    whole blocks per output group; for A > 1 the lanes layout puts A/4 or
    A/2 threads on a chunk row, so A*P must fill 4 blocks (one rule for both
    float types: the executor asks without knowing the type)."""
    if a_ext < 1 or a_ext & (a_ext - 1) or a_ext > WORKGROUP_SIZE:
        return False
    if a_ext == 1:
        return chunks % WORKGROUP_SIZE == 0
    return (a_ext * chunks) % (4 * WORKGROUP_SIZE) == 0


def partials_per_output(a_ext: int, chunks: int) -> int:
    """How many partials per output the partial pass leaves for the final pass."""
    if block_folds(a_ext, chunks):
        return a_ext * chunks // WORKGROUP_SIZE
    return chunks


Outputs = list[tuple[FNode | None, tuple[int, ...], str]]


class PartialPassMixin:
    """The partial-pass bodies of the CUDA emitter."""


    def partial_lanes(self) -> int:
        """``partial_lane_width``: CUDA needs nothing more (one vector load
        per same-shape input)."""
        return self.partial_lane_width()

    def partial_body(self) -> tuple[Outputs, int]:
        if self.partial_lanes() > 1:
            return self.partial_body_lanes(self.partial_lanes())
        plan = self.plan
        node = plan.reduce_node
        a_ext, r_ext, c_ext = node.attrs
        chunks = plan.chunks
        t = node.dtype
        threads = a_ext * chunks * c_ext
        self.emit(f"const unsigned int c = g / {a_ext * chunks}u;")
        self.emit(f"const unsigned int tt = g % {a_ext * chunks}u;")
        self.emit(f"const unsigned int a = tt % {a_ext}u;")
        self.emit(f"{self.type_name(t)} acc = {self.reduce_init(node.op, t)};")
        if self.unroll > 1:
            self.emit(f"#pragma unroll {self.unroll}")
        self.emit(f"for (unsigned int r = tt / {a_ext}u; r < {r_ext}u; r += {chunks}u) {{")
        self.indent += 1
        self.memo.append({})
        j = self.let_u(f"a + {a_ext}u * (r + {r_ext}u * c)")
        x = node.args[0]
        value = self.convert(self.value(x, j, x.shape), x.dtype, t)
        self.emit(f"acc = {self.combine(node.op, 'acc', value, t)};")
        folds = block_folds(a_ext, chunks)
        partials = a_ext * partials_per_output(a_ext, chunks) * c_ext
        outs: Outputs = [(None, (partials, 1), t)]
        for k, extra in enumerate(plan.outputs, start=1):
            ev = self.value(extra, j, x.shape)
            self.emit(f"out{k}[{j}] = {ev};")
            outs.append((extra, extra.shape, extra.dtype))
        self.memo.pop()
        self.indent -= 1
        self.emit("}")
        if folds:
            # the block holds WORKGROUP_SIZE/A chunk rows of one c: one row out
            per_c = a_ext * chunks // WORKGROUP_SIZE
            self.block_fold(["acc"], [f"c * {a_ext * per_c}u + threadIdx.x + {a_ext}u * (tt / {WORKGROUP_SIZE}u)"])
        else:
            self.emit("out0[g] = acc;")
        return outs, threads

    def partial_body_lanes(self, width: int) -> tuple[Outputs, int]:
        """The partial pass with ``width`` lanes per thread iteration.

        Partial p of output (a, c) stays at ``a + A*(p + P*c)`` (the final
        pass reads the same layout). With A divisible by the width a thread
        owns ``width`` consecutive outputs (one accumulator each); with
        A == 1 it takes ``width`` consecutive elements of its output.
        """
        plan = self.plan
        node = plan.reduce_node
        a_ext, r_ext, c_ext = node.attrs
        chunks = plan.chunks
        t = node.dtype
        ct = self.type_name(t)
        x = node.args[0]
        per_output = a_ext > 1
        groups = a_ext // width if per_output else 1
        threads = groups * chunks * c_ext
        self.emit(f"const unsigned int c = g / {groups * chunks}u;")
        self.emit(f"const unsigned int tt = g % {groups * chunks}u;")
        accs = [f"acc{lane}" for lane in range(width if per_output else 1)]
        for acc in accs:
            self.emit(f"{ct} {acc} = {self.reduce_init(node.op, t)};")
        if per_output:
            self.emit(f"const unsigned int a0 = (tt % {groups}u) * {width}u;")
            self.emit(f"for (unsigned int r = tt / {groups}u; r < {r_ext}u; r += {chunks}u) {{")
            base = "a0 + {a}u * (r + {r}u * c)".format(a=a_ext, r=r_ext)
        else:
            self.emit(f"for (unsigned int q = tt; q < {r_ext // width}u; q += {chunks}u) {{")
            base = f"q * {width}u + {r_ext}u * c"
        self.indent += 1
        self.memo.append({})
        j0 = self.let_u(base)
        lanes = [j0] + [self.let_u(f"{j0} + {lane}u") for lane in range(1, width)]
        self.vector_lanes = {name: lane for lane, name in enumerate(lanes)}
        self.vector_index = self.let_u(f"{j0} / {width}u")
        for lane, j in enumerate(lanes):
            value = self.convert(self.value(x, j, x.shape), x.dtype, t)
            acc = accs[lane] if per_output else accs[0]
            self.emit(f"{acc} = {self.combine(node.op, acc, value, t)};")
        folds = block_folds(a_ext, chunks)
        # partial p of output (a, c) at a + A*(p + P*c), P = partials_per_output
        partials = a_ext * partials_per_output(a_ext, chunks) * c_ext
        outs: Outputs = [(None, (partials, 1), t)]
        for k, extra in enumerate(plan.outputs, start=1):
            for j in lanes:
                self.emit(f"out{k}[{j}] = {self.value(extra, j, x.shape)};")
            outs.append((extra, extra.shape, extra.dtype))
        self.memo.pop()
        self.indent -= 1
        self.emit("}")
        if folds:
            per_c = a_ext * chunks // WORKGROUP_SIZE
            block = f"(tt / {WORKGROUP_SIZE}u)"
            if per_output:
                # A threads remain (lid % A): `width` outputs each, in row
                # lid / groups of the block's `width` rows
                row = f"{block} * {width}u + threadIdx.x / {groups}u"
                slots = [f"c * {a_ext * per_c}u + a0 + {lane}u + {a_ext}u * ({row})" for lane in range(width)]
            else:
                slots = [f"c * {per_c}u + {block}"]
            self.block_fold(accs, slots)
        elif per_output:
            slot = f"c * {a_ext * chunks}u + a0 + {a_ext}u * (tt / {groups}u)"
            for lane, acc in enumerate(accs):
                self.emit(f"out0[{slot} + {lane}u] = {acc};")
        else:
            self.emit("out0[g] = acc0;")
        return outs, threads

    def block_fold(self, accs: list[str], slots: list[str]) -> None:
        """Fold each accumulator over the block's threads with equal
        ``threadIdx.x % A`` (they hold the same outputs) and let threads
        ``< A`` write ``accs[k]`` to ``out0[slots[k]]``: warp shuffles down
        to A lanes per warp, then one shared-memory step across the warps
        (at most 8 combines). Every thread of a block reaches it together
        (the thread count is whole blocks), as the barriers need."""
        node = self.plan.reduce_node
        a_ext = node.attrs[0]
        op, t = node.op, node.dtype
        ct = self.type_name(t)
        offset = WARP_SIZE // 2
        while offset >= a_ext:
            for acc in accs:
                other = self.fresh("sf")
                self.emit(f"const {ct} {other} = __shfl_down_sync(0xffffffffu, {acc}, {offset}u);")
                self.emit(f"{acc} = {self.combine(op, acc, other, t)};")
            offset //= 2
        sh = self.fresh("fold")
        self.prologue.append(f"  __shared__ {ct} {sh}[{len(accs) * WORKGROUP_SIZE}];")
        self.block_folded = True
        if a_ext < WARP_SIZE:
            at = f"(threadIdx.x >> 5) * {a_ext}u + (threadIdx.x & 31u)"
            stores = " ".join(f"{sh}[{k * WORKGROUP_SIZE}u + {at}] = {acc};" for k, acc in enumerate(accs))
            self.emit(f"if ((threadIdx.x & 31u) < {a_ext}u) {{ {stores} }}")
        else:
            for k, acc in enumerate(accs):
                self.emit(f"{sh}[{k * WORKGROUP_SIZE}u + threadIdx.x] = {acc};")
        self.emit("__syncthreads();")
        self.emit(f"if (threadIdx.x < {a_ext}u) {{")
        rows = WORKGROUP_SIZE // max(a_ext, WARP_SIZE)
        for k, slot in enumerate(slots):
            total = self.fresh("tot")
            base = f"{sh}[{k * WORKGROUP_SIZE}u + threadIdx.x"
            self.emit(f"  {ct} {total} = {base}];")
            for row in range(1, rows):
                self.emit(f"  {total} = {self.combine(op, total, f'{base} + {row * a_ext}u]', t)};")
            self.emit(f"  out0[{slot}] = {total};")
        self.emit("}")
        # the array is rewritten in the next grid-stride iteration
        self.emit("__syncthreads();")
