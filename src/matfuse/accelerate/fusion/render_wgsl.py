"""WGSL renderer for fusion kernel plans.

Turns a :class:`KernelPlan` into WGSL with the binding layout documented in
``kernel.py``. Every value is a ``let`` in SSA order; nodes are rendered once
per (index, iteration space). f64 transcendentals use matfuse's own f64
functions (``f64math``) because the drivers' are wrong (GPU-FACTS.md).
"""

from __future__ import annotations

from typing import Callable

from matfuse.accelerate.fusion._render_cache import (
    CachingRenderer, Recipe, RecipeRecorder, attr0, attr1, linspace_step,
)
from matfuse.accelerate.fusion.graph import FNode, GENERATORS, REDUCTIONS, needs_domain_check
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel, WORKGROUP_SIZE
from matfuse.accelerate.providers.wgpu.shaders.special_values import fused_name

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
#: Kernels whose index math allows it start with SPLIT_MARKER (elementwise)
#: or SPLIT_PARTIAL_MARKER + " <reduction length> <chunks>" (partial pass).
SPLIT_MARKER = "// mf:split-dispatch"
SPLIT_PARTIAL_MARKER = "// mf:split-partial"
from matfuse.accelerate.fusion import wgsl_lib
from matfuse.accelerate.fusion._emitter import EmitterBase, LoopEmitterMixin, numel

_STORAGE = {"float32": "f32", "float64": "f64", "bool": "u32"}
_BIN_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
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
    return node.op in ("add", "sub") and (
        (a.op == "neg" and _same_value(a.args[0], b)) or
        (b.op == "neg" and _same_value(b.args[0], a)))


_CMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_F32_UNARY = {
    "sqrt": "sqrt({0})", "exp": "exp({0})", "log": "log({0})", "log2": "log2({0})",
    "log10": "(log({0}) * 0.4342944819032518)", "sin": "mf32_sin({0})", "cos": "mf32_cos({0})",
    "tan": "mf32_tan({0})", "asin": "asin({0})", "acos": "acos({0})", "atan": "mf32_atan({0})",
    "sinh": "mf32_sinh({0})", "cosh": "cosh({0})", "tanh": "mf32_tanh({0})",
    "expm1": "mf32_expm1({0})", "log1p": "mf_log1p_f32({0})",
}


def workgroup_folds(a_ext: int, chunks: int) -> bool:
    """Whether a partial pass folds its chunks in workgroup memory: lanes A a
    power of two that divides the workgroup, and A*P whole workgroups."""
    return (a_ext & (a_ext - 1)) == 0 and a_ext <= WORKGROUP_SIZE \
        and (a_ext * chunks) % WORKGROUP_SIZE == 0


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


class _Emitter(EmitterBase, LoopEmitterMixin, RecipeRecorder):
    u32_type = "u32"

    def __init__(self, plan: KernelPlan, nodes: list[FNode], f64_division: bool = False):
        super().__init__()
        self.f64_division = f64_division
        self.loop_offsets = []
        self.plan = plan
        self.init_recipe(nodes)
        self.ftype = "f64" if any(n.dtype == "f64" for n in nodes) else "f32"
        self.inputs: list[object] = []
        self.input_names: dict[object, str] = {}
        self.input_types: list[str] = []
        self.scalars: list[float] = []
        # h[0].x: thread count; h[0].y: always 0 (source of run-time inf/NaN).
        self.header: list[int] = [0, 0]
        self.helpers: set[str] = set()
        self.has_flag = any(needs_domain_check(n) for n in nodes)
        self.shared: str | None = None  # element type of the workgroup array, if used
        self.nodes = nodes
        self.vector_lanes: dict[str, int] = {}
        # the Philox block index of a lane group (vector_lanes' elements)
        self.vector_index = "i"
        # split dispatch: the global index of full-shape reads, and whether
        # every full-shape read used it (see SPLIT_MARKER)
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

    def binding(self, key: object, storage: str) -> str:
        if key not in self.input_names:
            name = f"in{len(self.inputs)}"
            self.input_names[key] = name
            self.inputs.append(key)
            self.input_types.append(storage)
            self.record_input(key)
        return self.input_names[key]

    def let_index(self, expr: str) -> str:
        return self.let(expr)

    # loop hooks (LoopEmitterMixin)
    def declare(self, type_name: str, init: str) -> str:
        name = self.fresh("c")
        self.emit(f"var {name}: {type_name} = {init};")
        return name

    def type_name(self, dtype: str) -> str:
        return dtype

    def open_loop(self, var: str, count: str) -> None:
        self.emit(f"for (var {var}: u32 = 0u; {var} < {count}; {var} = {var} + 1u) {{")

    def carry(self, a: str, b: str) -> str:
        return f"select(0u, 1u, {a} < {b})"

    def loop_word(self, node: FNode, getter: Callable[[FNode], int]) -> str:
        return self.header_word(node, getter)

    # ------------------------------------------------------------ values
    def _render(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        if node.handle is not None:
            storage = _STORAGE[node.handle.dtype]
            name = self.binding(node, storage)
            at = self.index_in(idx, space, node.shape)
            if at == idx and self.split_index is not None:
                if (idx == self.split_index or idx in self.split_lanes) and tuple(space) == tuple(self.plan.shape):
                    at = f"{idx} - params.r.x"   # bound from the range's first element
                else:
                    self.splittable = False
            if storage == "u32":
                return self.let(f"({name}[{at}] != 0u)")
            return self.let(f"{name}[{at}]")
        op = node.op
        if op == "loop":
            return self.loop_value(node, idx, space)
        if op == "loopvar":
            raise ValueError("a loop placeholder rendered outside its loop")
        if op == "scalar" or op == "fill":
            return self.scalar(node, attr0, node.dtype)
        if op in GENERATORS:
            return self.generator(node, self.index_in(idx, space, node.shape))
        if op in REDUCTIONS:
            return self.reduction_value(node, self.index_in(idx, space, node.shape))
        args = [self.value(a, idx, space) for a in node.args]
        if op == "cast":
            return self.let(self.convert(args[0], node.args[0].dtype, node.dtype))
        if len(args) == 1:
            x = self.convert(args[0], node.args[0].dtype, self.compute_type(node))
            return self.unary(op, x, self.compute_type(node), needs_domain_check(node))
        a = self.convert(args[0], node.args[0].dtype, self.compute_type(node))
        b = self.convert(args[1], node.args[1].dtype, self.compute_type(node))
        if op in ("div", "ldiv") and _same_value(*node.args) \
                and self.compute_type(node) in ("f32", "f64"):
            return self.self_quotient(a, self.compute_type(node))
        if _self_cancelling(node) and self.compute_type(node) in ("f32", "f64"):
            b = self.opaque(b, self.compute_type(node))
        if op in ("div", "ldiv") and self.f64_division and self.compute_type(node) == "f32":
            den = node.args[1 if op == "div" else 0]
            if den.handle is None and den.op in ("scalar", "fill"):
                return self.uniform_quotient(a, b) if op == "div" else self.uniform_quotient(b, a)
        return self.binary(op, a, b, self.compute_type(node), needs_domain_check(node))

    def self_quotient(self, x: str, t: str) -> str:
        """``x ./ x`` spelled out: 1, or NaN for 0, +-Inf and NaN. NVIDIA's
        Vulkan driver folds ``x / (x * one)`` to 1 even with a run-time
        ``one``; NaN is tested by its bits (the driver also folds ``x == x``)."""
        nan = f"{t}(bitcast<f32>(0x7fc00000u))"
        special = (f"(((bitcast<u32>(f32({x})) & 0x7fffffffu) > 0x7f800000u) "
                   f"|| abs({x}) == {_inf(t)} || {x} == {t}(0.0))")
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

    def compute_type(self, node: FNode) -> str:
        if node.dtype != "bool":
            return node.dtype
        types = [a.dtype for a in node.args if a.dtype != "bool"]
        if not types:
            # WGSL orders numbers, not bools: compare logicals as 0/1 values.
            return "f32" if node.op in ("lt", "le", "gt", "ge") else "bool"
        return "f32" if "f32" in types else "f64"

    def convert(self, x: str, src: str, dst: str) -> str:
        if src == dst:
            return x
        if src == "bool":
            return f"select({dst}(0.0), {dst}(1.0), {x})"
        if dst == "bool":
            return f"({x} != {src}(0.0))"
        return f"{dst}({x})"

    def unary(self, op: str, x: str, t: str, check: bool) -> str:
        if op == "neg":
            return self.let(f"(-{x})")
        if op == "not":
            return self.let(f"({x} == {t}(0.0))" if t != "bool" else f"(!{x})")
        if op == "abs":
            return self.let(f"abs({x})")
        if op in ("sign", "fix", "round"):
            return self.let(f"{self.special(op, t)}({x})")
        if op == "floor" or op == "ceil":
            return self.let(f"{op}({x})")
        if op == "isnan":
            return self.let(f"(((bitcast<u32>(f32({x})) & 0x7fffffffu) > 0x7f800000u))")
        if op == "isinf":
            return self.let(f"(abs({x}) == {_inf(t)})")
        if op == "isfinite":
            return self.let(f"(abs({x}) < {_inf(t)})")
        if check:
            self.domain_check(op, [x], t)
        if t == "f32":
            template = _F32_UNARY[op]
            if template.startswith("mf_"):
                self.helpers.add(template.split("(")[0])
            elif template.startswith("mf32_"):
                self.helpers.add("f32math")
            return self.let(template.format(x))
        self.helpers.add("f64math")
        return self.let(f"mf_{op}({x})")

    def special(self, op: str, t: str) -> str:
        """Name of the shared definition of ``op`` on ``t`` (``special_values``:
        the eager kernels render the same body)."""
        name = fused_name(op, t)
        self.helpers.add(name)
        return name

    def quotient(self, a: str, b: str, t: str) -> str:
        if t == "f32" and self.f64_division:
            return f"f32(f64({a}) / f64({b}))"   # see WgslRenderer: WGSL's f32 / is 2.5 ulp
        return f"{a} / {b}"

    def binary(self, op: str, a: str, b: str, t: str, check: bool) -> str:
        if op in ("div", "ldiv"):
            num, den = (a, b) if op == "div" else (b, a)
            return self.let(f"({self.quotient(num, den, t)})")
        if op in _BIN_INFIX:
            return self.let(f"({a} {_BIN_INFIX[op]} {b})")
        if op == "ldiv":
            return self.let(f"({b} / {a})")
        if op == "ne":
            # not (a == b): drivers may compile != as an ordered comparison,
            # false for a NaN operand (MATLAB: NaN ~= x is true)
            return self.let(f"(!({a} == {b}))")
        if op in _CMP:
            return self.let(f"({a} {_CMP[op]} {b})")
        if op in ("and", "or", "xor"):
            za = f"({a} != {t}(0.0))" if t != "bool" else a
            zb = f"({b} != {t}(0.0))" if t != "bool" else b
            joiner = {"and": "&&", "or": "||", "xor": "!="}[op]
            return self.let(f"({za} {joiner} {zb})")
        if op in ("max", "min"):
            fn = f"mf_{op}_{t}"
            self.helpers.add(fn)
            return self.let(f"{fn}({a}, {b})")
        if op in ("mod", "rem", "hypot"):
            return self.let(f"{self.special(op, t)}({a}, {b})")
        if check:
            self.domain_check(op, [a, b], t)
        if op == "pow":
            fn = f"mf_pow_{t}"
            self.helpers.add(fn)
        elif op == "atan2" and t == "f32":
            # the eager kernels' own atan2 (the driver's is ~50 ulps off on lavapipe)
            fn = "mfx_atan2_32"
            self.helpers.add(fn)
        elif t == "f64":
            fn = f"mf_{op}"
            self.helpers.add("f64math")
        else:
            fn = op
        return self.let(f"{fn}({a}, {b})")

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

    def let_value(self, expr: str, dtype: str) -> str:
        return self.let(expr)

    def combine(self, op: str, acc: str, value: str, t: str) -> str:
        return _combine(op, acc, value, t, self)

    def reduce_init(self, op: str, t: str) -> str:
        return _init(op, t)

    def literal(self, value: float, t: str) -> str:
        return f"{t}({value!r})"

    def math_name(self, name: str, t: str) -> str:
        return name

    # ------------------------------------------------------------ generators
    def generator(self, node: FNode, i: str) -> str:
        t = node.dtype
        if node.op == "linspace":
            start = self.scalar(node, attr0, t)
            stop = self.scalar(node, attr1, t)
            n = node.attrs[2]
            step = self.scalar(node, linspace_step, t)
            return self.let(f"select({start} + {t}({i}) * {step}, {stop}, {i} == {max(n - 1, 0)}u)")
        if node.op == "colon":
            start = self.scalar(node, attr0, t)
            step = self.scalar(node, attr1, t)
            return self.let(f"({start} + {t}({i}) * {step})")
        per_block = 2 if t == "f64" else 4
        lane = self.vector_lanes.get(i) if len(self.vector_lanes) == per_block else None
        words = self.philox_block(node, self.vector_index if lane is not None else None, i, per_block)
        if node.op == "rand":
            if t == "f64":
                self.helpers.add("u01_f64")
                if lane is not None:
                    return self.let(f"u01_f64({words}.{'xz'[lane]}, {words}.{'yw'[lane]})")
                return self.let(f"select(u01_f64({words}.x, {words}.y), u01_f64({words}.z, {words}.w), ({i} & 1u) == 1u)")
            self.helpers.add("u01_f32")
            word = f"{lane}u" if lane is not None else f"{i} & 3u"
            return self.let(f"u01_f32({words}[{word}])")
        pair = f"{lane & 2}u" if lane is not None else self.let(f"({i} & 2u)")
        sin_v, cos_v = self.box_muller(node, words, pair, t)
        if lane is not None:
            return sin_v if lane & 1 else cos_v
        return self.let(f"select({cos_v}, {sin_v}, ({i} & 1u) == 1u)")

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
        self.emit(f"var acc: {t} = {_init(node.op, t)};")
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
        self.emit(f"acc = {_combine(node.op, 'acc', value, t, self)};")
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
        later = f"acc = {_combine(node.op, 'out0[g]', 'acc', t, self)};"
        if not folded:
            self.emit(f"if (valid) {{ if (params.r.z != 0u) {{ {later} }} out0[g] = acc; }}")
            return outs, threads
        self.shared = t
        self.emit("mf_sh[lid] = acc;")
        self.emit("workgroupBarrier();")
        stride = WORKGROUP_SIZE // 2
        while stride >= a_ext:
            self.emit(f"if (lid < {stride}u) {{ mf_sh[lid] = "
                      f"{_combine(node.op, 'mf_sh[lid]', f'mf_sh[lid + {stride}u]', t, self)}; }}")
            self.emit("workgroupBarrier();")
            stride //= 2
        per_output = chunks * a_ext // WORKGROUP_SIZE
        self.emit(f"if (valid && lid < {a_ext}u) {{")
        self.emit(f"  let slot = c * {a_ext * per_output}u + lid + {a_ext}u * "
                  f"(tt / {WORKGROUP_SIZE}u);")
        self.emit("  var acc_all = mf_sh[lid];")
        self.emit(f"  if (params.r.z != 0u) {{ acc_all = "
                  f"{_combine(node.op, 'out0[slot]', 'acc_all', t, self)}; }}")
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
            self.emit(f"var {acc}: {t} = {_init(op, t)};")
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
            self.emit(f"{acc} = {_combine(op, acc, value, t, self)};")
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
            later = f"{value} = {_combine(op, f'out0[{slot}]', value, t, self)};"
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
                f"{_combine(op, f'mf_sh[lid + {k * WORKGROUP_SIZE}u]', f'mf_sh[lid + {k * WORKGROUP_SIZE + stride}u]', t, self)};"
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

    def store(self, value: str, dtype: str) -> str:
        return f"select(0u, 1u, {value})" if dtype == "bool" else value

    def assemble(self, outs, threads: int, grid_stride: bool) -> RenderedKernel:
        decls = []
        binding = 0
        for name, storage in zip([self.input_names[k] for k in self.inputs], self.input_types):
            decls.append(f"@group(0) @binding({binding}) var<storage, read> {name}: array<{storage}>;")
            binding += 1
        out_specs = []
        for k, (node, shape, dtype) in enumerate(outs):
            storage = "u32" if dtype == "bool" else dtype
            decls.append(f"@group(0) @binding({binding}) var<storage, read_write> out{k}: array<{storage}>;")
            binding += 1
            out_specs.append((shape, _np_dtype(dtype)))
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
        if self.splittable and self.plan.kind == "elementwise":
            decls.insert(0, SPLIT_MARKER)
        elif self.splittable and self.split_index is None and self.plan.reduce_node is not None:
            _, r_ext, _ = self.plan.reduce_node.attrs
            decls.insert(0, f"{SPLIT_PARTIAL_MARKER} {r_ext} {self.plan.chunks}")
        decls.append(f"@group(0) @binding({binding}) var<uniform> params: Params;")
        lib = wgsl_lib.library(self.helpers)
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
            max_workgroups=GRID_STRIDE_WORKGROUPS if grid_stride else None)


def _combine(op: str, acc: str, value: str, t: str, emitter: _Emitter) -> str:
    op = op.removeprefix("reduce_")
    if op in ("sum", "mean"):
        return f"{acc} + {value}"
    if op == "prod":
        return f"{acc} * {value}"
    # WGSL comparisons are ordered (false with a NaN operand): NaN values are
    # skipped, and an all-NaN slice keeps the NaN initial value (MATLAB's omitnan).
    cmp = ">" if op == "max" else "<"
    return f"select({acc}, {value}, ({value} {cmp} {acc}) || (((bitcast<u32>(f32({acc})) & 0x7fffffffu) > 0x7f800000u) && ({value} == {value})))"


def _init(op: str, t: str) -> str:
    op = op.removeprefix("reduce_")
    if op in ("sum", "mean"):
        return f"{t}(0.0)"
    if op == "prod":
        return f"{t}(1.0)"
    return _nan(t)


# Non-finite constants are built at run time from the zero header word
# ``h[0].y``: WGSL rejects non-finite constant expressions.
def _inf(t: str) -> str:
    return f"({t}(1.0) / {t}(params.h[0].y))"


def _nan(t: str) -> str:
    return f"({t}(params.h[0].y) / {t}(params.h[0].y))"


def _np_dtype(dtype: str) -> str:
    return {"f32": "float32", "f64": "float64", "bool": "bool"}[dtype]
