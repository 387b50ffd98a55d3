"""CUDA C renderer for fusion kernel plans (the CUDA twin of ``render_wgsl``).

It accepts the same :class:`KernelPlan` and returns a :class:`RenderedKernel`
with the same binding order (inputs, outputs, the domain flag last) and the
same header/scalar semantics; only the way they reach the kernel differs:

* buffers are pointer arguments in binding order (bool is CUDA ``bool``,
  one byte, like a CuPy/NumPy bool array; the flag is ``unsigned int``);
* then every header word as an ``unsigned int`` argument ``h0, h1, ...``
  (``h0`` the thread count, ``h1`` always 0, then Philox keys/counters);
* then every scalar uniform as a ``float``/``double`` argument ``s0, s1, ...``
  (the kernel's ``float_type``).

Kernels are ``extern "C"`` grid-stride loops with 32-bit indices (the
provider refuses more than 2**31 threads); any grid is correct. CUDA's own
accurate f64 math needs no helper library (unlike WGSL on NVIDIA Vulkan,
GPU-FACTS.md).

Final passes reading many partials per output (more than FINAL_PASS_MAX,
or more than 16 when there are few outputs) run one block per output (``block_final``): the block's threads sum strided
partials and fold them in shared memory, so the executor needs no fold
passes (each kernel costs ~0.2 ms of host time on the H100 machine: the
elementwise benchmark went from 4 kernels to 2). Such kernels loop over
outputs with ``blockIdx``/``gridDim`` and over partials with
``threadIdx``/``blockDim``, so one thread of one block (the g++ test shim)
still computes everything.

Partial passes (``cuda_partial``) fold their chunks across each block when
the layout allows (``partials_per_output``), and division by a kernel-uniform
divisor is exact and cheaper than ``/`` (``cuda_division``); both keep
per-thread setup (shared arrays, reciprocals) in ``prologue``, the lines
before the grid-stride loop.
"""

from __future__ import annotations

from typing import Callable

from matfuse.accelerate.fusion._emitter import EmitterBase, LoopEmitterMixin, numel
from matfuse.accelerate.fusion._render_cache import CachingRenderer, Recipe, RecipeRecorder
from matfuse.accelerate.fusion.graph import FNode, IR_OF_INTEGER, REDUCTIONS, needs_domain_check, value_dtype
from matfuse.accelerate.fusion import cuda_partial
from matfuse.accelerate.fusion.cuda_division import UniformDivisionMixin, division_source
from matfuse.accelerate.fusion.dialect import CUDA
from matfuse.accelerate_api.device_code.cuda_library import library
from matfuse.accelerate.fusion.cuda_partial import BLOCK_FOLD_MARKER, WARP_SIZE, PartialPassMixin
from matfuse.accelerate.fusion.kernel import KernelPlan, RenderedKernel, WORKGROUP_SIZE, numpy_dtype

#: partials per output a thread-per-output final pass reads (the executor's
#: FINAL_PASS_MAX); above it the final pass runs a block per output
THREAD_FINAL_MAX = 256
#: a block-per-output final pass handles up to this many outputs ...
BLOCK_FINAL_MAX_OUTPUTS = 4096
#: ... and up to this many partials per output (chunk_count's maximum)
BLOCK_FINAL_MAX_PARTIALS = 1 << 18
#: threads of such a block: 256 partials each at most, read 8 at a time (one
#: 256-thread block reading 2^18 partials took ~1 ms on the H100: each
#: thread waited on 1024 loads in turn)
BLOCK_FINAL_THREADS = 1024
#: with fewer outputs than this (a fraction of the GPU's SMs) a final pass
#: reading more than FEW_OUTPUTS_BLOCK_MIN partials per output also runs a
#: block per output: one thread reading ~250 partials in turn (what the
#: partial pass's block fold leaves for a 4e6-element sum) waits on each load
FEW_OUTPUTS = 64
FEW_OUTPUTS_BLOCK_MIN = 16

ENTRY_POINT = "mf_fused"
_CTYPE = {"f32": "float", "f64": "double", "bool": "bool"}
_STORAGE = {"float32": "float", "float64": "double", "bool": "bool",
            "int8": "signed char", "uint8": "unsigned char", "int16": "short",
            "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int"}

class CudaRenderer(CachingRenderer):
    """Renders one kernel plan to CUDA C (NVRTC-compilable, no includes).

    Args:
        unroll: unroll factor of the grid-stride loops. One element per
            thread leaves too few loads in flight to saturate HBM; unrolling
            lets each thread issue several independent loads (``__restrict__``
            pointers make the reordering legal).
    """

    file_extension = "cu"

    language = "cuda"
    #: integer IR dtypes load and store as their C types (values in double)
    integer_storage = True

    def __init__(self, unroll: int = 4):
        super().__init__()
        self.unroll = max(1, int(unroll))

    def render(self, plan: KernelPlan) -> RenderedKernel:
        return self._cache.render(plan, self._build)

    @staticmethod
    def partials_per_output(a_ext: int, chunks: int) -> int:
        """How many partials per output the partial pass leaves for the
        final pass (``cuda_partial``: blocks fold their chunks when they can)."""
        return cuda_partial.partials_per_output(a_ext, chunks)

    @staticmethod
    def final_pass_max(outputs: int) -> int:
        """Partials per output the final pass of a reduction with
        ``outputs`` outputs may read (the executor folds longer ones)."""
        return BLOCK_FINAL_MAX_PARTIALS if outputs <= BLOCK_FINAL_MAX_OUTPUTS else THREAD_FINAL_MAX

    def _build(self, plan: KernelPlan, nodes: list[FNode]) -> tuple[RenderedKernel, Recipe]:
        emitter = _Emitter(plan, nodes, self.unroll)
        kernel = emitter.build()
        return kernel, emitter.recipe(kernel)


class _Emitter(PartialPassMixin, UniformDivisionMixin, EmitterBase, LoopEmitterMixin, RecipeRecorder):
    dialect = CUDA

    def __init__(self, plan: KernelPlan, nodes: list[FNode], unroll: int = 4):
        super().__init__()
        self.loop_offsets = []
        self.plan = plan
        self.unroll = unroll
        self.init_recipe(nodes)
        self.ftype = "f64" if any(value_dtype(n.dtype) == "f64" for n in nodes) else "f32"
        self.scalars: list[float] = []
        self.header: list[int] = [0, 0]   # h0: thread count; h1: always 0
        self.has_flag = any(needs_domain_check(n) for n in nodes)
        self.nodes = nodes
        # lines before the grid-stride loop (per-thread setup of uniforms)
        self.prologue: list[str] = []
        self.block_folded = False
        self.divisors: dict[tuple[int, str], str] = {}
        self.division_types: set[str] = set()
        # kernel arguments by (node, getter): ``scalar``/``header_word``
        self.param_names: dict[tuple, str] = {}
        self.uniform: dict[int, bool] = {}
        self.vector_lanes: dict[str, int] = {}
        # Index of the current vector (16 bytes) of the lanes: also the
        # Philox block index when a vector is exactly one block.
        self.vector_index = "i"
        self.block_final = False
        self.final_threads = BLOCK_FINAL_THREADS
        if plan.kind == "elementwise" and plan.partial_of:
            most = max(plan.partial_of.values())
            outputs = numel(plan.shape)
            self.block_final = outputs <= BLOCK_FINAL_MAX_OUTPUTS and (
                most > THREAD_FINAL_MAX or (outputs < FEW_OUTPUTS and most > FEW_OUTPUTS_BLOCK_MIN))
            # a thread per partial up to the full block (a power of two: the fold halves it)
            self.final_threads = min(BLOCK_FINAL_THREADS, max(WARP_SIZE, 1 << (most - 1).bit_length()))

    # ------------------------------------------------------------ bookkeeping
    def let(self, expr: str, ctype: str) -> str:
        name = self.fresh()
        self.emit(f"const {ctype} {name} = {expr};")
        return name

    def let_u(self, expr: str) -> str:
        return self.let(expr, "unsigned int")

    def let_index(self, expr: str) -> str:
        return self.let_u(expr)

    def scalar(self, node: FNode, getter: Callable[[FNode], float], dtype: str) -> str:
        """A scalar argument holding ``getter(node)`` (re-bound on a cache
        hit); one per node and getter, however often the node is rendered
        (a generator read by every lane of an iteration)."""
        key = (node.uid, getter)
        name = self.param_names.get(key)
        if name is None:
            name = f"s{len(self.scalars)}"
            self.scalars.append(self.record_scalar(node, getter))
            self.param_names[key] = name
        return name if dtype == self.ftype else f"(({_CTYPE[dtype]}){name})"

    def header_word(self, node: FNode, getter: Callable[[FNode], int]) -> str:
        key = (node.uid, getter, "header")
        name = self.param_names.get(key)
        if name is None:
            name = f"h{len(self.header)}"
            self.header.append(self.record_header(node, getter))
            self.param_names[key] = name
        return name

    # ------------------------------------------------------------ values
    def load(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        """Input ``node`` at ``idx``: a lane of a vector load when it can."""
        storage = _STORAGE[node.handle.dtype]
        name = self.binding(node, storage)
        at = self.index_in(idx, space, node.shape)
        lane = self.vector_lanes.get(at)
        if lane is not None and storage == _CTYPE[self.ftype]:
            return f"{self.vector_load(node, name)}.{'xyzw'[lane]}"
        if node.dtype in IR_OF_INTEGER:
            return self.let(f"(double){name}[{at}]", "double")
        return self.let(f"{name}[{at}]", storage)

    def render_before_operands(self, node: FNode, idx: str, space: tuple[int, ...]) -> str | None:
        """Division by a kernel-uniform divisor (``cuda_division``)."""
        if node.op in ("div", "ldiv") and node.dtype != "bool":
            return self.uniform_division(node, idx, space)
        return None

    # block-per-output final passes (EmitterBase.block_reduction_value)
    local_id = "threadIdx.x"
    barrier = "__syncthreads();"

    def block_loop(self, var: str, count: str) -> None:
        # 8 loads in flight per thread: one at a time left each thread waiting
        self.emit("#pragma unroll 8")
        self.emit(f"for (unsigned int {var} = threadIdx.x; {var} < {count}; {var} += blockDim.x) {{")

    def fold_loop(self, var: str) -> None:
        self.emit(f"for (unsigned int {var} = blockDim.x / 2u; {var} > 0u; {var} >>= 1) {{")

    def shared_array(self, t: str) -> str:
        name = self.fresh("sh")
        self.emit(f"__shared__ {_CTYPE[t]} {name}[{BLOCK_FINAL_THREADS}];")
        return name

    # ------------------------------------------------------------ generators
    def u01_f64(self, words: str, half: int) -> str:
        return f"mf_u01_f64({words}.{'xz'[half]}, {words}.{'yw'[half]})"

    def u01_f32(self, words: str, word: str) -> str:
        return f"mf_u01_f32(mf_word({words}, {word}))"

    def philox_call(self, lo: str, hi: str, k0: str, k1: str) -> str:
        words = self.fresh("w")
        self.emit(f"const mf_u4 {words} = mf_philox({lo}, {hi}, {k0}, {k1});")
        return words

    def box_muller(self, node: FNode, words: str, pair: str, t: str) -> tuple[str, str]:
        """(r*sin, r*cos) of the uniform pair ``pair`` of ``words``: double
        for double; single in single-precision math, equal to the
        reference's float64-then-round result up to the last bits (f64
        transcendentals made the Monte-Carlo loop kernel 2x slower)."""
        key = ("box_muller", node.uid, words, pair)
        found = self.lookup(key)
        if found is not None:
            return found
        self.helpers.add("u01_f64" if t == "f64" else "u01_f32")
        ct = _CTYPE[t]
        if t == "f64":
            u1 = self.let(f"mf_u01_f64({words}.x, {words}.y)", "double")
            u2 = self.let(f"mf_u01_f64({words}.z, {words}.w)", "double")
            r = self.let(f"sqrt(-2.0 * log({u1}))", "double")
            theta = self.let(f"6.283185307179586 * {u2}", "double")
            out = (self.let(f"{r} * sin({theta})", ct), self.let(f"{r} * cos({theta})", ct))
        else:
            u1 = self.let(f"mf_u01_f32(mf_word({words}, {pair}))", "float")
            u2 = self.let(f"mf_u01_f32(mf_word({words}, {pair} + 1u))", "float")
            r = self.let(f"sqrtf(-2.0f * logf({u1}))", "float")
            sin_name = self.fresh("sn")
            cos_name = self.fresh("cs")
            self.emit(f"float {sin_name}, {cos_name};")
            self.emit(f"sincospif(2.0f * {u2}, &{sin_name}, &{cos_name});")
            out = (self.let(f"{r} * {sin_name}", ct), self.let(f"{r} * {cos_name}", ct))
        self.memo[-1][key] = out
        return out

    # ------------------------------------------------------------ kernels
    def build(self) -> RenderedKernel:
        if self.plan.kind == "partial":
            body_outputs, threads = self.partial_body()
        else:
            body_outputs, threads = self.elementwise_body()
        self.header[0] = threads
        if self.block_final:
            # h0 counts outputs (one block each); the launch needs whole blocks
            return self.assemble(body_outputs, threads * self.final_threads)
        return self.assemble(body_outputs, threads)

    def _loop(self, var: str) -> None:
        # No unroll pragma: measured slower on the H100 for elementwise
        # chains (2.18 TB/s unrolled x1 vs 1.88 x4); vector loads give the
        # loads in flight instead (elementwise_body).
        self.indent = 1
        if self.block_final:
            self.emit(f"for (unsigned int {var} = blockIdx.x; {var} < h0; {var} += gridDim.x) {{")
        else:
            self.emit(f"for (unsigned int {var} = blockIdx.x * blockDim.x + threadIdx.x; {var} < h0; "
                      f"{var} += blockDim.x * gridDim.x) {{")
        self.indent = 2

    def vector_width(self) -> int:
        """Elements per thread iteration of an elementwise kernel: 4 floats
        or 2 doubles (one 16-byte load/store per full-size buffer), or 1
        when the plan has reductions, bool outputs or a ragged size."""
        plan = self.plan
        width = 4 if self.ftype == "f32" else 2
        n = numel(plan.shape)
        if plan.partial_of or n % width != 0 or n < width:
            return 1
        if any(o.dtype != self.ftype for o in plan.outputs):
            return 1
        for node in self.nodes:
            if node.handle is None and node.op in REDUCTIONS:
                return 1
        return width

    def vector_load(self, node: FNode, name: str) -> str:
        """The vector holding ``node``'s lanes of this iteration (loaded once)."""
        key = ("vector", node.uid)
        found = self.lookup(key)
        if found is not None:
            return found
        vec = self.fresh("vec")
        vtype = "float4" if self.ftype == "f32" else "double2"
        self.emit(f"const {vtype} {vec} = reinterpret_cast<const {vtype}*>({name})[{self.vector_index}];")
        # Elementwise: one vector per thread iteration (outermost scope);
        # partial pass: one per reduction-loop iteration.
        self.memo[0 if self.plan.kind != "partial" else -1][key] = vec
        return vec

    def elementwise_body(self) -> tuple[list[tuple[FNode | None, tuple[int, ...], str]], int]:
        plan = self.plan
        width = self.vector_width()
        outs = []
        if width == 1:
            for k, node in enumerate(plan.outputs):
                value = self.value(node, "i", plan.shape)
                store = f"out{k}[i] = {value};"
                self.emit(f"if (threadIdx.x == 0u) {{ {store} }}" if self.block_final else store)
                outs.append((node, node.shape, node.dtype))
            return outs, numel(plan.shape)
        # Thread iteration i computes elements width*i .. width*i + width-1.
        lanes = []
        for lane in range(width):
            lanes.append(self.let_u(f"i * {width}u + {lane}u"))
        self.vector_lanes = {name: lane for lane, name in enumerate(lanes)}
        vtype, make = ("float4", "make_float4") if width == 4 else ("double2", "make_double2")
        for k, node in enumerate(plan.outputs):
            values = [self.value(node, name, plan.shape) for name in lanes]
            self.emit(f"reinterpret_cast<{vtype}*>(out{k})[i] = {make}({', '.join(values)});")
            outs.append((node, node.shape, node.dtype))
        return outs, numel(plan.shape) // width

    def assemble(self, outs: list[tuple[FNode | None, tuple[int, ...], str]], threads: int) -> RenderedKernel:
        block = self.final_threads if self.block_final else WORKGROUP_SIZE
        params = []
        for name, storage in zip([self.input_names[k] for k in self.inputs], self.input_types):
            params.append(f"const {storage}* __restrict__ {name}")
        out_specs = []
        for k, (_, shape, dtype) in enumerate(outs):
            np_dtype = numpy_dtype(dtype)
            params.append(f"{_STORAGE[np_dtype]}* __restrict__ out{k}")
            out_specs.append((shape, np_dtype))
        nodes = [node for node, _, _ in outs]
        if self.has_flag:
            params.append("unsigned int* __restrict__ flag")
            out_specs.append(((1, 1), "uint32"))
            nodes.append(None)
        params += [f"const unsigned int h{j}" for j in range(len(self.header))]
        params += [f"const {_CTYPE[self.ftype]} s{j}" for j in range(len(self.scalars))]
        loop_var = "g" if self.plan.kind == "partial" else "i"
        body = self.lines
        self.lines = []
        self._loop(loop_var)
        head = self.lines
        helpers = library(self.helpers) + division_source(self.division_types)
        head = self.prologue + head
        signature = ",\n    ".join(params)
        source = (
            "// matfuse fused kernel (CUDA C, generated)\n"
            + (BLOCK_FOLD_MARKER + "\n" if self.block_folded else "") + helpers
            + f"\nextern \"C\" __global__ void __launch_bounds__({block}) {ENTRY_POINT}(\n"
            + f"    {signature}) {{\n" + "\n".join(head + body) + "\n  }\n}\n")
        return RenderedKernel(
            source=source, entry_point=ENTRY_POINT, workgroup_size=block,
            inputs=list(self.inputs), outputs=out_specs, output_nodes=nodes,
            threads=threads, header=list(self.header), scalars=list(self.scalars),
            float_type=self.ftype, has_flag=self.has_flag,
            vector_width=max(1, len(self.vector_lanes)))
