"""WGSL renderer for fusion kernel plans.

Turns a :class:`KernelPlan` into WGSL with the binding layout documented in
``kernel.py``. Every value is a ``let`` in SSA order; nodes are rendered once
per (index, iteration space). What differs from CUDA only in spelling is
written through the WGSL dialect (``dialect.py``, ``_emitter.py``);
elementwise ops come from the op table, whose f64 transcendentals are
matfuse's own (``wgsl_f64math``: the drivers' are wrong, GPU-FACTS.md).
Partial passes are in ``wgsl_partial``.
"""

from __future__ import annotations

from typing import Callable

from matfuse.accelerate.fusion._emitter import EmitterBase, LoopEmitterMixin, numel
from matfuse.accelerate.fusion._render_cache import CachingRenderer, Recipe, RecipeRecorder
from matfuse.accelerate.fusion.dialect import WGSL
from matfuse.accelerate.fusion.graph import FNode, IR_OF_INTEGER, REDUCTIONS, needs_domain_check
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel, WORKGROUP_SIZE, numpy_dtype
from matfuse.accelerate.fusion.wgsl_partial import WgslPartialPassMixin, workgroup_folds
from matfuse.accelerate_api import SplitPlan
from matfuse.accelerate_api.device_code import wgsl_library

# Workgroups launched by grid-stride elementwise kernels (enough to fill an H100).
GRID_STRIDE_WORKGROUPS = 8192
#: partials per output a thread-per-output final pass reads (the executor's
#: FINAL_PASS_MAX); above it, and for at most BLOCK_FINAL_MAX_OUTPUTS
#: outputs, the final pass runs a workgroup per output folding up to
#: BLOCK_FINAL_MAX_PARTIALS partials in workgroup memory (no fold passes:
#: the 4K image normalisation needs 6 dispatches, not 9). 64 partials per
#: invocation at most: a 256-thread block reading 2^18 partials took ~1 ms
#: on the H100 (CUDA); longer lists are folded by a partial pass first.
THREAD_FINAL_MAX = 256
BLOCK_FINAL_MAX_OUTPUTS = 4096
BLOCK_FINAL_MAX_PARTIALS = 1 << 14
#: Split dispatch (wgpu provider, tensors over one storage binding): every
#: kernel's Params end with ``r: vec4<u32>`` after pack_params()'s bytes:
#: r.x the range's first element (full-shape operands and outputs are bound
#: from it), r.y its end (partial passes; 0xFFFFFFFF when whole), r.z != 0:
#: a partial pass combines into the partials of the ranges before it.
#: Kernels whose index math allows it declare it in ``RenderedKernel.split``.

#: numpy dtype -> WGSL storage element type (8/16-bit integers are stored
#: widened to 32 bits, as the wgpu provider's buffers hold them)
_STORAGE = {"float32": "f32", "float64": "f64", "bool": "u32",
            "int8": "i32", "int16": "i32", "int32": "i32",
            "uint8": "u32", "uint16": "u32", "uint32": "u32"}
#: binary ops a driver may fold when both operands are one value (x - x,
#: x / x, x == x ...), or one is the other's negation (x + -x)
_FOLDABLE_SELF = frozenset({"sub", "div", "ldiv", "eq", "ne", "lt", "le", "gt", "ge", "mod",
                            "rem", "add", "max", "min", "atan2", "hypot", "pow"})


def _same_value(a: FNode, b: FNode, depth: int = 0) -> bool:
    """Whether ``a`` and ``b`` compute one value (the compiler's CSE sees
    them as one): the same node, or the same op on the same operands."""
    if a is b:
        return True
    if depth > 8 or a.op != b.op or a.dtype != b.dtype or a.handle is not b.handle \
            or a.attrs != b.attrs or len(a.args) != len(b.args) or a.op in ("rand", "randn"):
        return False
    return all(_same_value(x, y, depth + 1) for x, y in zip(a.args, b.args))


def _self_cancelling(node: FNode) -> bool:
    if node.op not in _FOLDABLE_SELF or len(node.args) != 2:
        return False
    a, b = node.args
    if _same_value(a, b):
        return True
    # (a materialised node keeps its op but not its operands)
    return node.op in ("add", "sub") and (
        (a.op == "neg" and a.args != () and _same_value(a.args[0], b)) or
        (b.op == "neg" and b.args != () and _same_value(b.args[0], a)))


def kernel_float_type(plan: KernelPlan, nodes: list[FNode]) -> str:
    """The kernel's float type (its uniforms' and integer loads'): double
    when any value is double, integer or computed from an integer, single
    otherwise. An integer input read only by casts to single loads straight
    into single (the correctly rounded conversion, MATLAB's ``single(x)``),
    so those casts run on adapters without shader-f64."""
    if any(node.dtype in IR_OF_INTEGER for node in plan.outputs):
        return "f64"
    for node in nodes:
        if node.dtype == "f64" or (node.dtype in IR_OF_INTEGER and node.handle is None):
            return "f64"
        if any(a.dtype in IR_OF_INTEGER for a in node.args) \
                and not (node.op == "cast" and node.dtype == "f32"):
            return "f64"
    return "f32"


class WgslRenderer(CachingRenderer):
    """Renders kernel plans to WGSL, caching by graph structure
    (``_render_cache``: the Monte-Carlo loop renders once).

    Args:
        f64_division: compute f32 quotients as ``f32(f64(a) / f64(b))``. WGSL
            allows 2.5 ulp for f32 division and NVIDIA's Vulkan driver uses
            it (20-54% of quotients 1 ulp off NumPy on the H100, session 4);
            the double quotient rounded once to f32 is MATLAB's IEEE result
            (it is at least 2^-49 relative away from any f32 rounding
            boundary, far more than f64 division's error). Needs shader-f64:
            the wgpu provider turns it on when the adapter has it.
    """

    file_extension = "wgsl"
    #: integer IR dtypes load from and store to their i32/u32 buffers
    #: (values in double; see ``kernel_float_type`` for casts to single)
    integer_storage = True

    def __init__(self, f64_division: bool = False):
        super().__init__()
        self.f64_division = f64_division

    @staticmethod
    def partials_per_output(a_ext: int, chunks: int) -> int:
        """How many partials per output the partial pass leaves for the final pass."""
        if workgroup_folds(a_ext, chunks):
            return chunks * a_ext // WORKGROUP_SIZE
        return chunks

    def render(self, plan: KernelPlan) -> RenderedKernel:
        return self._cache.render(plan, self._build)

    def _build(self, plan: KernelPlan, nodes: list[FNode]) -> tuple[RenderedKernel, Recipe]:
        emitter = _Emitter(plan, nodes, self.f64_division)
        kernel = emitter.build()
        return kernel, emitter.recipe(kernel)

    @staticmethod
    def final_pass_max(outputs: int) -> int:
        """Partials per output the final pass of a reduction with
        ``outputs`` outputs may read (the executor folds longer ones)."""
        return BLOCK_FINAL_MAX_PARTIALS if outputs <= BLOCK_FINAL_MAX_OUTPUTS else THREAD_FINAL_MAX


class _Emitter(WgslPartialPassMixin, EmitterBase, LoopEmitterMixin, RecipeRecorder):
    dialect = WGSL

    def __init__(self, plan: KernelPlan, nodes: list[FNode], f64_division: bool = False):
        super().__init__()
        self.f64_division = f64_division
        self.loop_offsets = []
        self.plan = plan
        self.init_recipe(nodes)
        self.ftype = kernel_float_type(plan, nodes)
        self.scalars: list[float] = []
        # h[0].x: thread count; h[0].y: always 0 (source of run-time inf/NaN).
        self.header: list[int] = [0, 0]
        self.has_flag = any(needs_domain_check(n) for n in nodes)
        self.shared: str | None = None  # element type of the workgroup array, if used
        self.nodes = nodes
        self.vector_lanes: dict[str, int] = {}
        # the Philox block index of a lane group (vector_lanes' elements)
        self.vector_index = "i"
        # split dispatch: the global index of full-shape reads, and whether
        # every full-shape read used it (see split_plan)
        self.split_index: str | None = "i" if plan.kind == "elementwise" else None
        self.split_lanes: set[str] = set()  # further global indices (partial lanes)
        self.shared_len = WORKGROUP_SIZE
        self.splittable = not plan.partial_of
        # a workgroup per output folds long partial lists (see THREAD_FINAL_MAX)
        self.block_final = (plan.kind == "elementwise" and bool(plan.partial_of)
                            and max(plan.partial_of.values()) > THREAD_FINAL_MAX
                            and numel(plan.shape) <= BLOCK_FINAL_MAX_OUTPUTS)
        self.final_shared: set[str] = set()  # element types of the fold arrays

    # ------------------------------------------------------------ bookkeeping
    def let(self, expr: str) -> str:
        name = self.fresh()
        self.emit(f"let {name} = {expr};")
        return name

    def scalar(self, node: FNode, getter: Callable[[FNode], float], dtype: str) -> str:
        """A uniform holding ``getter(node)``; recorded so a cached kernel can
        be re-bound to another graph of the same structure."""
        j = len(self.scalars)
        self.scalars.append(self.record_scalar(node, getter))
        text = f"params.s[{j // 4}].{'xyzw'[j % 4]}"
        return text if dtype == self.ftype else f"{dtype}({text})"

    def header_word(self, node: FNode, getter: Callable[[FNode], int]) -> str:
        j = len(self.header)
        self.header.append(self.record_header(node, getter))
        return f"params.h[{j // 4}].{'xyzw'[j % 4]}"

    def let_index(self, expr: str) -> str:
        return self.let(expr)

    # ------------------------------------------------------------ values
    def load(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        """Input ``node`` at ``idx`` (bools are stored as u32, integers as
        i32/u32 and loaded into the kernel's float type); full-shape reads
        of a split dispatch are bound from the range's first element."""
        storage = _STORAGE[node.handle.dtype]
        name = self.binding(node, storage)
        at = self.index_in(idx, space, node.shape)
        if at == idx and self.split_index is not None:
            if (idx == self.split_index or idx in self.split_lanes) and tuple(space) == tuple(self.plan.shape):
                at = f"{idx} - params.r.x"
            else:
                self.splittable = False
        if node.dtype == "bool":
            return self.let(f"({name}[{at}] != 0u)")
        if node.dtype in IR_OF_INTEGER:
            return self.let(f"{self.ftype}({name}[{at}])")
        return self.let(f"{name}[{at}]")

    def elementwise_values(self, node: FNode, values: list[str], t: str) -> str:
        """The op table's form, after WGSL's own precautions: an operand of a
        self-cancelling op is made opaque, and f32 quotients are IEEE-exact
        through f64 (``f64_division``)."""
        if node.op in ("div", "ldiv") and len(values) == 2 and t in ("f32", "f64") \
                and _same_value(*node.args):
            return self.self_quotient(values[0], t)
        if len(values) == 2 and t in ("f32", "f64") and _self_cancelling(node):
            values = [values[0], self.opaque(values[1], t)]
        if node.op in ("div", "ldiv") and node.dtype in IR_OF_INTEGER:
            return self.integer_quotient(node, values, t)
        if node.op in ("div", "ldiv") and t == "f32" and self.f64_division:
            num, den = values if node.op == "div" else values[::-1]
            den_node = node.args[1 if node.op == "div" else 0]
            if den_node.handle is None and den_node.op in ("scalar", "fill"):
                return self.uniform_quotient(num, den)
            return self.let(f"({self.quotient(num, den, t)})")
        return super().elementwise_values(node, values, t)

    def integer_quotient(self, node: FNode, values: list[str], t: str) -> str:
        """The quotient of an integer-class division before rounding
        (``mf_idiv_f64``): x/0 is the largest finite value of its sign, 0/0
        and NaN/0 are 0 (no NaN reaches the store), and the quotient of two
        whole numbers is corrected by its exact remainder (WGSL's f64
        division may be 2.5 ulp off, enough to move 7/2 below 3.5)."""
        num, den = values if node.op == "div" else values[::-1]
        name = f"mf_idiv_{t}"
        self.helpers.add(name)
        return self.let(f"{name}({num}, {den})")

    def self_quotient(self, x: str, t: str) -> str:
        """``x ./ x`` spelled out: 1, or NaN for 0, +-Inf and NaN. NVIDIA's
        Vulkan driver folds ``x / (x * one)`` to 1 even with a run-time
        ``one``; NaN is tested by its bits (the driver also folds ``x == x``)."""
        nan = self.dialect.nan(t)
        special = (f"(((bitcast<u32>(f32({x})) & 0x7fffffffu) > 0x7f800000u) "
                   f"|| abs({x}) == {self.dialect.inf(t)} || {x} == {t}(0.0))")
        return self.let(f"select({t}(1.0), {nan}, {special})")

    def opaque(self, x: str, t: str) -> str:
        """``x`` times a run-time 1.0: drivers fold ``x - x`` to 0 and ``x / x``
        to 1 (wrong for NaN and Inf) when both sides are one value."""
        name = f"mf_keep_{t}"
        self.helpers.add(name)
        return self.let(f"{name}({x})")

    def uniform_quotient(self, a: str, d: str) -> str:
        """f32 ``a / d`` with a uniform ``d`` (with ``f64_division``): the
        double product ``f32(f64(a) * (1 / f64(d)))``, whose reciprocal the
        driver computes once, not a double division per element (wgpu
        elementwise benchmark's partial pass 0.94 -> 0.84 ms on the H100,
        session 5). Exact outside the subnormal range, as in
        ``cuda_division``: with WGSL's 2.5-ulp double division the product
        is within 3 * 2^-52 (relative) of ``a/d``, and a quotient of two
        singles is at least 2^-49 away from every single rounding midpoint
        in the normal range. Quotients in the subnormal range can be
        midpoints exactly and take the double division."""
        q = self.let(f"f64({a}) * (f64(1.0) / f64({d}))")
        r = self.fresh()
        self.emit(f"var {r} = f32({q});")
        self.emit(f"if (abs({q}) < f64(1.1754943508222875e-38) && {q} != f64(0.0)) "
                  f"{{ {r} = f32(f64({a}) / f64({d})); }}")
        return r

    def quotient(self, a: str, b: str, t: str) -> str:
        if t == "f32" and self.f64_division:
            return f"f32(f64({a}) / f64({b}))"   # see WgslRenderer: WGSL's f32 / is 2.5 ulp
        return f"{a} / {b}"

    # workgroup-per-output final passes (EmitterBase.block_reduction_value):
    # the output loop runs over workgroup ids, so the barriers are in
    # uniform control flow
    local_id = "lid"
    barrier = "workgroupBarrier();"

    def block_loop(self, var: str, count: str) -> None:
        self.emit(f"for (var {var}: u32 = lid; {var} < {count}; {var} = {var} + {WORKGROUP_SIZE}u) {{")

    def fold_loop(self, var: str) -> None:
        self.emit(f"for (var {var}: u32 = {WORKGROUP_SIZE // 2}u; {var} > 0u; {var} = {var} >> 1u) {{")

    def shared_array(self, t: str) -> str:
        self.final_shared.add(t)
        return f"mf_fin_{t}"

    # ------------------------------------------------------------ generators
    def u01_f64(self, words: str, half: int) -> str:
        return f"u01_f64({words}.{'xz'[half]}, {words}.{'yw'[half]})"

    def u01_f32(self, words: str, word: str) -> str:
        return f"u01_f32({words}[{word}])"

    def philox_call(self, lo: str, hi: str, k0: str, k1: str) -> str:
        return self.let(f"philox4x32_10(vec4<u32>({lo}, {hi}, 0u, 0u), vec2<u32>({k0}, {k1}))")

    def box_muller(self, node: FNode, words: str, pair: str, t: str) -> tuple[str, str]:
        """(r*sin, r*cos) of the uniform pair ``pair`` of ``words``."""
        key = ("box_muller", node.uid, words, pair)
        found = self.lookup(key)
        if found is not None:
            return found
        if t == "f64":
            self.helpers.update({"u01_f64", "f64math"})
            u1 = self.let(f"u01_f64({words}.x, {words}.y)")
            u2 = self.let(f"u01_f64({words}.z, {words}.w)")
            r = self.let(f"sqrt(-2.0 * mf_log({u1}))")
            theta = self.let(f"6.283185307179586 * {u2}")
            out = (self.let(f"{r} * mf_sin({theta})"), self.let(f"{r} * mf_cos({theta})"))
        else:
            self.helpers.add("u01_f32")
            u1 = self.let(f"u01_f32({words}[{pair}])")
            u2 = self.let(f"u01_f32({words}[{pair} + 1u])")
            r = self.let(f"sqrt(-2.0 * log({u1}))")
            theta = self.let(f"6.2831855 * {u2}")
            out = (self.let(f"{r} * sin({theta})"), self.let(f"{r} * cos({theta})"))
        self.memo[-1][key] = out
        return out

    # ------------------------------------------------------------ kernels
    def build(self) -> RenderedKernel:
        plan = self.plan
        if plan.kind == "partial":
            body_outputs, threads = self.partial_body()
        else:
            body_outputs, threads = self.elementwise_body()
        self.header[0] = threads
        if self.block_final:
            # h[0].x counts outputs (a workgroup each); the launch needs whole workgroups
            threads *= WORKGROUP_SIZE
        return self.assemble(body_outputs, threads, grid_stride=plan.kind != "partial")

    def elementwise_body(self) -> tuple[list[tuple[FNode | None, tuple[int, ...], str]], int]:
        plan = self.plan
        n = numel(plan.shape)
        outs = []
        # Grid-stride loop: measured faster than one element per thread on
        # the H200 (GPU-FACTS.md), and any n fits a 1-D grid.
        if self.block_final:
            self.emit("for (var i: u32 = wid.x; i < params.h[0].x; i = i + nwg.x) {")
        else:
            self.emit(f"for (var i: u32 = gid.x + params.r.x; i < params.h[0].x; "
                      f"i = i + nwg.x * {WORKGROUP_SIZE}u) {{")
        self.indent += 1
        width = self.lane_width()
        if width > 1 or any(nd.op in REDUCTIONS and nd.handle is None for nd in self.nodes):
            self.splittable = False
            self.split_index = None
        if width > 1:
            # Thread iteration i computes elements width*i .. width*i+width-1:
            # one Philox block per loop iteration serves all its lanes.
            lanes = [self.let(f"i * {width}u + {lane}u") for lane in range(width)]
            self.vector_lanes = {name: lane for lane, name in enumerate(lanes)}
        else:
            lanes = ["i"]
        for k, node in enumerate(plan.outputs):
            for index in lanes:
                value = self.value(node, index, plan.shape)
                at = f"{index} - params.r.x" if self.split_index else index
                store = f"out{k}[{at}] = {self.store(value, node.dtype)};"
                self.emit(f"if (lid == 0u) {{ {store} }}" if self.block_final else store)
            outs.append((node, node.shape, node.dtype))
        self.indent -= 1
        self.emit("}")
        return outs, n // width

    def lane_width(self) -> int:
        """Elements per thread iteration: the Philox block size when the plan
        runs a loop that draws random numbers (each iteration of the loop
        then computes one block for all lanes), else 1."""
        if not any(nd.op == "loop" and nd.handle is None and nd.attrs[0].has_random
                   for nd in self.nodes):
            return 1
        if any(nd.op in REDUCTIONS and nd.handle is None for nd in self.nodes):
            return 1
        width = 4 if self.ftype == "f32" else 2
        n = numel(self.plan.shape)
        return width if n % width == 0 and n >= width else 1

    def store(self, value: str, dtype: str) -> str:
        """A value of IR dtype ``dtype`` as its buffer element (integers are
        already rounded and saturated: ``EmitterBase.convert``)."""
        if dtype == "bool":
            return f"select(0u, 1u, {value})"
        if dtype in IR_OF_INTEGER:
            return f"{_STORAGE[numpy_dtype(dtype)]}({value})"
        return value

    def assemble(self, outs, threads: int, grid_stride: bool) -> RenderedKernel:
        decls = []
        binding = 0
        for name, storage in zip([self.input_names[k] for k in self.inputs], self.input_types):
            decls.append(f"@group(0) @binding({binding}) var<storage, read> {name}: array<{storage}>;")
            binding += 1
        out_specs = []
        for k, (node, shape, dtype) in enumerate(outs):
            storage = _STORAGE[numpy_dtype(dtype)]
            decls.append(f"@group(0) @binding({binding}) var<storage, read_write> out{k}: array<{storage}>;")
            binding += 1
            out_specs.append((shape, numpy_dtype(dtype)))
        nodes = [node for node, _, _ in outs]
        if self.has_flag:
            decls.append(f"@group(0) @binding({binding}) var<storage, read_write> flag: array<u32>;")
            binding += 1
            out_specs.append(((1, 1), "uint32"))
            nodes.append(None)
        if self.shared is not None:
            decls.append(f"var<workgroup> mf_sh: array<{self.shared}, {self.shared_len}>;")
        for t in sorted(self.final_shared):
            decls.append(f"var<workgroup> mf_fin_{t}: array<{t}, {WORKGROUP_SIZE}>;")
        header_len = max(8, -(-len(self.header) // 8) * 8)
        scalar_len = max(1, -(-len(self.scalars) // 4))
        decls.append(f"struct Params {{ h: array<vec4<u32>, {header_len // 4}>, "
                     f"s: array<vec4<{self.ftype}>, {scalar_len}>, r: vec4<u32> }};")
        decls.append(f"@group(0) @binding({binding}) var<uniform> params: Params;")
        lib = wgsl_library.library(self.helpers)
        if "f64math" in self.helpers or "mf_pow_f64" in self.helpers:
            # The f64 library needs a run-time 1.0 (see f64math.mf_init).
            self.lines.insert(0, "  " * 2 + "mf_init(nwg.x);")
        if "mf_keep_f32" in self.helpers or "mf_keep_f64" in self.helpers:
            # 1.0 from the uniform (r.w is always 0: range_tail): a compiler
            # may assume num_workgroups >= 1 and fold min(nwg.x, 1) (NVIDIA)
            self.lines.insert(0, "  " * 2 + "mf_keep_one = f32(params.r.w + 1u);")
        body = "\n".join(self.lines)
        source = "\n".join(decls) + "\n" + lib + (
            f"\n@compute @workgroup_size({WORKGROUP_SIZE})\n"
            "fn main(@builtin(global_invocation_id) gid: vec3<u32>, "
            "@builtin(num_workgroups) nwg: vec3<u32>, "
            "@builtin(local_invocation_index) lid: u32"
            + (", @builtin(workgroup_id) wid: vec3<u32>" if self.block_final else "")
            + ") {\n" + body + "\n}\n")
        return RenderedKernel(
            source=source, entry_point="main", workgroup_size=WORKGROUP_SIZE,
            inputs=list(self.inputs), outputs=out_specs, output_nodes=nodes,
            threads=threads, header=list(self.header), scalars=list(self.scalars),
            float_type=self.ftype, has_flag=self.has_flag,
            max_workgroups=GRID_STRIDE_WORKGROUPS if grid_stride else None,
            split=self.split_plan())

    def split_plan(self) -> SplitPlan | None:
        """How the kernel may run over ranges (None: its index math needs
        the whole tensor bound)."""
        if not self.splittable:
            return None
        if self.plan.kind == "elementwise":
            return SplitPlan("elementwise")
        if self.split_index is None and self.plan.reduce_node is not None:
            _, r_ext, _ = self.plan.reduce_node.attrs
            return SplitPlan("partial", int(r_ext), int(self.plan.chunks))
        return None
