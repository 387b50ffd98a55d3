"""Partial passes of reductions in generated WGSL (a mixin of the WGSL
emitter, ``render_wgsl._Emitter``; the CUDA twin is ``cuda_partial``).

Thread ``g = c*(A*P) + a + A*p`` accumulates chunk rows ``r = p, p+P, ...``
of output (a, c); when A is a power of two dividing the workgroup, the
workgroup folds its chunks per lane in workgroup memory, so the final pass
reads P*A/256 partials per output instead of P. A split dispatch (tensors
over one storage binding) runs the pass per range: ``params.r`` gives the
range, and later ranges combine into the earlier partials.

The emitter provides ``emit``/``let``/``value``/``convert``/``combine``/
``reduce_init``/``store``, ``plan``, ``nodes``, ``memo``, ``indent``, the
lane state (``vector_lanes``/``vector_index``) and the split state
(``split_index``/``split_lanes``/``splittable``), ``shared``/``shared_len``
(the workgroup array).
"""

from __future__ import annotations

from matfuse.accelerate.fusion.graph import FNode
from matfuse.accelerate.fusion.kernel import WORKGROUP_SIZE


def workgroup_folds(a_ext: int, chunks: int) -> bool:
    """Whether a partial pass folds its chunks in workgroup memory: lanes A a
    power of two that divides the workgroup, and A*P whole workgroups."""
    return (a_ext & (a_ext - 1)) == 0 and a_ext <= WORKGROUP_SIZE \
        and (a_ext * chunks) % WORKGROUP_SIZE == 0


class WgslPartialPassMixin:
    """``partial_body``: the first pass of the plan's reduction."""

    def partial_body(self) -> tuple[list[tuple[FNode | None, tuple[int, ...], str]], int]:
        """First pass of a reduction: thread g = c*(A*P) + a + A*p accumulates
        r = p, p+P, ... (coalesced for every A); when A is a power of two the
        workgroup then folds its 256/A chunks per lane in shared memory, so
        the final pass reads P*A/256 partials per output instead of P."""
        if self.partial_lanes() > 1:
            return self.partial_body_lanes(self.partial_lanes())
        plan = self.plan
        node = plan.reduce_node
        a_ext, r_ext, c_ext = node.attrs
        chunks = plan.chunks
        t = node.dtype
        threads = a_ext * chunks * c_ext
        folded = workgroup_folds(a_ext, chunks)
        # a full reduction (A = C = 1) reads element r: it can run split
        split = a_ext == 1 and c_ext == 1 and not plan.partial_of
        self.emit("let g = gid.x + gid.y * (nwg.x * 256u);")
        self.emit("let valid = g < params.h[0].x;")
        self.emit(f"let c = g / {a_ext * chunks}u;")
        self.emit(f"let tt = g % {a_ext * chunks}u;")
        self.emit(f"let a = tt % {a_ext}u;")
        self.emit(f"var acc: {t} = {self.reduce_init(node.op, t)};")
        self.emit(f"let r_end = select(0u, min({r_ext}u, params.r.y), valid);")
        self.emit(f"for (var r: u32 = tt / {a_ext}u + params.r.x; r < r_end; r = r + {chunks}u) {{")
        self.indent += 1
        self.memo.append({})
        j = self.let(f"a + {a_ext}u * (r + {r_ext}u * c)")
        if split:
            self.split_index = j
        else:
            self.splittable = False
        x = node.args[0]
        value = self.convert(self.value(x, j, x.shape), x.dtype, t)
        self.emit(f"acc = {self.combine(node.op, 'acc', value, t)};")
        partial_count = threads // (WORKGROUP_SIZE // a_ext) if folded else threads
        outs: list[tuple[FNode | None, tuple[int, ...], str]] = [(None, (partial_count, 1), t)]
        for k, extra in enumerate(plan.outputs, start=1):
            ev = self.value(extra, j, x.shape)
            at = f"{j} - params.r.x" if split else j
            self.emit(f"out{k}[{at}] = {self.store(ev, extra.dtype)};")
            outs.append((extra, extra.shape, extra.dtype))
        self.memo.pop()
        self.indent -= 1
        self.emit("}")
        self.split_index = None
        # later ranges of a split dispatch combine into the earlier partials
        later = f"acc = {self.combine(node.op, 'out0[g]', 'acc', t)};"
        if not folded:
            self.emit(f"if (valid) {{ if (params.r.z != 0u) {{ {later} }} out0[g] = acc; }}")
            return outs, threads
        self.shared = t
        self.emit("mf_sh[lid] = acc;")
        self.emit("workgroupBarrier();")
        stride = WORKGROUP_SIZE // 2
        while stride >= a_ext:
            self.emit(f"if (lid < {stride}u) {{ mf_sh[lid] = "
                      f"{self.combine(node.op, 'mf_sh[lid]', f'mf_sh[lid + {stride}u]', t)}; }}")
            self.emit("workgroupBarrier();")
            stride //= 2
        per_output = chunks * a_ext // WORKGROUP_SIZE
        self.emit(f"if (valid && lid < {a_ext}u) {{")
        self.emit(f"  let slot = c * {a_ext * per_output}u + lid + {a_ext}u * "
                  f"(tt / {WORKGROUP_SIZE}u);")
        self.emit("  var acc_all = mf_sh[lid];")
        self.emit(f"  if (params.r.z != 0u) {{ acc_all = "
                  f"{self.combine(node.op, 'out0[slot]', 'acc_all', t)}; }}")
        self.emit("  out0[slot] = acc_all;")
        self.emit("}")
        return outs, threads

    def partial_lanes(self) -> int:
        """``partial_lane_width`` where WGSL's layout also allows it: with A == 1 the
        chunk count P divides by the width too (split ranges start on
        multiples of P: whole lane groups); when the workgroup folds, A*P/width
        must fill whole workgroups."""
        if self.plan.kind != "partial":
            return 1
        width = self.partial_lane_width()
        if width == 1:
            return 1
        a_ext = self.plan.reduce_node.attrs[0]
        chunks = self.plan.chunks
        if a_ext == 1:
            return width if chunks % width == 0 else 1
        if workgroup_folds(a_ext, chunks) and (a_ext * chunks) % (width * WORKGROUP_SIZE):
            return 1
        return width

    def partial_body_lanes(self, width: int) -> tuple[list[tuple[FNode | None, tuple[int, ...], str]], int]:
        """``partial_body`` with ``width`` consecutive elements per thread
        iteration; the partials keep partial_body's layout and count.

        A divisible by the width: thread g = c*(A/w*P) + a0/w + A/w*p owns
        outputs a0 .. a0+w-1 of chunk row p (an accumulator each, the same
        elements in the same order as partial_body's threads); the fold
        stores accumulator k at mf_sh[lid*w + k], the index of
        partial_body's thread within a w-workgroup span, and folds each
        256-entry span as partial_body's workgroups do (bit-identical
        partials). A == 1: thread (c, p) takes the lane groups q = p, p+P,
        ... (elements q*w .. q*w+w-1) of output c: same partial count,
        other elements per partial."""
        plan = self.plan
        node = plan.reduce_node
        a_ext, r_ext, c_ext = node.attrs
        chunks = plan.chunks
        t = node.dtype
        op = node.op
        x = node.args[0]
        folded = workgroup_folds(a_ext, chunks)
        per_output = a_ext > 1
        groups = a_ext // width if per_output else 1
        threads = groups * chunks * c_ext
        split = a_ext == 1 and c_ext == 1 and not plan.partial_of
        self.emit("let g = gid.x + gid.y * (nwg.x * 256u);")
        self.emit("let valid = g < params.h[0].x;")
        self.emit(f"let c = g / {groups * chunks}u;")
        self.emit(f"let tt = g % {groups * chunks}u;")
        accs = [f"acc{k}" for k in range(width if per_output else 1)]
        for acc in accs:
            self.emit(f"var {acc}: {t} = {self.reduce_init(op, t)};")
        if per_output:
            self.emit(f"let a0 = (tt % {groups}u) * {width}u;")
            self.emit(f"let r_end = select(0u, min({r_ext}u, params.r.y), valid);")
            self.emit(f"for (var r: u32 = tt / {groups}u + params.r.x; r < r_end; r = r + {chunks}u) {{")
            base = f"a0 + {a_ext}u * (r + {r_ext}u * c)"
        else:
            # a split range starts at a multiple of P (of the width): its
            # first lane group q = tt (mod P)
            self.emit(f"let q0 = params.r.x / {width}u;")
            self.emit(f"let q_end = select(0u, min({r_ext // width}u, params.r.y / {width}u), valid);")
            self.emit(f"for (var q: u32 = q0 + (tt + {chunks}u - q0 % {chunks}u) % {chunks}u; "
                      f"q < q_end; q = q + {chunks}u) {{")
            base = f"q * {width}u + {r_ext}u * c"
        self.indent += 1
        self.memo.append({})
        j0 = self.let(base)
        lanes = [j0] + [self.let(f"{j0} + {k}u") for k in range(1, width)]
        self.vector_lanes = {name: k for k, name in enumerate(lanes)}
        if any(nd.op in ("rand", "randn") or (nd.op == "loop" and nd.attrs[0].has_random)
               for nd in self.nodes if nd.handle is None):
            self.vector_index = self.let(f"{j0} / {width}u")
        if split:
            self.split_index = j0
            self.split_lanes = set(lanes)
        else:
            self.splittable = False
        for k, j in enumerate(lanes):
            value = self.convert(self.value(x, j, x.shape), x.dtype, t)
            acc = accs[k] if per_output else accs[0]
            self.emit(f"{acc} = {self.combine(op, acc, value, t)};")
        # partial_body's count (its threads: A*P*C)
        partial_count = a_ext * chunks * c_ext
        if folded:
            partial_count //= WORKGROUP_SIZE // a_ext
        outs: list[tuple[FNode | None, tuple[int, ...], str]] = [(None, (partial_count, 1), t)]
        for k, extra in enumerate(plan.outputs, start=1):
            for j in lanes:
                ev = self.value(extra, j, x.shape)
                at = f"{j} - params.r.x" if split else j
                self.emit(f"out{k}[{at}] = {self.store(ev, extra.dtype)};")
            outs.append((extra, extra.shape, extra.dtype))
        self.memo.pop()
        self.indent -= 1
        self.emit("}")
        self.split_index = None
        self.split_lanes = set()
        self.vector_lanes = {}
        self.vector_index = "i"

        def write(slot: str, value: str) -> str:
            later = f"{value} = {self.combine(op, f'out0[{slot}]', value, t)};"
            return f"if (params.r.z != 0u) {{ {later} }} out0[{slot}] = {value};"

        if not folded:
            if per_output:
                # partial_body's thread c*(A*P) + a0 + k + A*p
                slot = self.let(f"c * {a_ext * chunks}u + a0 + {a_ext}u * (tt / {groups}u)")
                stores = " ".join(write(f"{slot} + {k}u", acc) for k, acc in enumerate(accs))
                self.emit(f"if (valid) {{ {stores} }}")
            else:
                self.emit(f"if (valid) {{ {write('g', 'acc0')} }}")
            return outs, threads
        self.shared = t
        n = len(accs)
        self.shared_len = WORKGROUP_SIZE * n
        for k, acc in enumerate(accs):
            self.emit(f"mf_sh[lid * {n}u + {k}u] = {acc};" if n > 1 else f"mf_sh[lid] = {acc};")
        self.emit("workgroupBarrier();")
        stride = WORKGROUP_SIZE // 2
        while stride >= a_ext:
            folds = " ".join(
                f"mf_sh[lid + {k * WORKGROUP_SIZE}u] = "
                f"{self.combine(op, f'mf_sh[lid + {k * WORKGROUP_SIZE}u]', f'mf_sh[lid + {k * WORKGROUP_SIZE + stride}u]', t)};"
                for k in range(n))
            self.emit(f"if (lid < {stride}u) {{ {folds} }}")
            self.emit("workgroupBarrier();")
            stride //= 2
        per_c = chunks * a_ext // WORKGROUP_SIZE
        self.emit(f"if (valid && lid < {a_ext}u) {{")
        for k in range(n):
            slot = f"c * {a_ext * per_c}u + lid + {a_ext}u * ((tt / {WORKGROUP_SIZE}u) * {n}u + {k}u)"
            self.emit(f"  var acc_all{k} = mf_sh[lid + {k * WORKGROUP_SIZE}u];")
            self.emit(f"  {write(slot, f'acc_all{k}')}")
        self.emit("}")
        return outs, threads
