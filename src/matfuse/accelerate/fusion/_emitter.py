"""What the WGSL and CUDA emitters share: SSA bookkeeping, broadcast index
maps, per-(node, index) memoisation, the plan's node order, and every value
that differs only in spelling (conversions, literals, reductions' steps,
loops, elementwise operations from the op table), written through the
emitter's :class:`~matfuse.accelerate.fusion.dialect.Dialect`.

A backend emitter subclasses :class:`EmitterBase`, sets ``dialect`` and
provides ``_render`` (one node), ``let_index`` (an index temporary),
``scalar``/``header_word`` (uniforms) and its kernel's body and assembly.
"""

from __future__ import annotations

from matfuse.accelerate.fusion.dialect import Dialect
from matfuse.accelerate.fusion._render_cache import attr0, attr1, counter_hi, counter_lo, linspace_step
from matfuse.accelerate.fusion.graph import (
    FNode, GENERATORS, IR_OF_INTEGER, REDUCTIONS, is_square, needs_domain_check, range_gather_base,
    range_gather_structure, value_dtype)
from matfuse.accelerate.fusion.kernel import numel, normalized_shape, plan_nodes

__all__ = ["EmitterBase", "LoopEmitterMixin", "numel", "normalized_shape", "plan_nodes"]
from matfuse.accelerate_api.device_code.op_table import OPS, to_integer


class EmitterBase:
    """SSA lines, indentation, memo scopes and index maps of one kernel."""

    #: the kernel runs a block/workgroup per output (final passes over long
    #: partial lists); the renderers set it
    block_final = False

    dialect: Dialect

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.indent = 2
        self.memo: list[dict[tuple[int, str], str]] = [{}]
        self.counter = 0
        self.inputs: list[object] = []
        self.input_names: dict[object, str] = {}
        self.input_types: list[str] = []
        self.helpers: set[str] = set()

    # ------------------------------------------------------------ spelling
    @property
    def u32_type(self) -> str:
        return self.dialect.u32_type

    def type_name(self, dtype: str) -> str:
        return self.dialect.type_name(value_dtype(dtype))

    def literal(self, value: float, t: str) -> str:
        return self.dialect.literal(value, t)

    def math_name(self, name: str, t: str) -> str:
        return self.dialect.math_name(name, t)

    def convert(self, x: str, src: str, dst: str) -> str:
        """``x`` of IR dtype ``src`` as a value of ``dst``. An integer-typed
        value is held in double; conversion to an integer dtype rounds and
        saturates (the op table's ``to_integer``)."""
        if src == dst:
            return x
        if dst in IR_OF_INTEGER:
            value = self.dialect.convert(x, value_dtype(src), "f64")
            expr, helpers = to_integer(value, IR_OF_INTEGER[dst], self.dialect.key, "f64",
                                       self.dialect.type_name("f64"))
            self.helpers.update(helpers)
            return expr
        return self.dialect.convert(x, value_dtype(src), dst)

    def combine(self, op: str, acc: str, value: str, t: str) -> str:
        return self.dialect.combine(op, acc, value, t)

    def reduce_init(self, op: str, t: str) -> str:
        return self.dialect.reduce_init(op, t)

    def carry(self, a: str, b: str) -> str:
        return self.dialect.carry(a, b)

    def let_value(self, expr: str, dtype: str) -> str:
        name = self.fresh()
        self.emit(self.dialect.let_line(name, self.type_name(dtype), expr))
        return name

    def declare(self, type_name: str, init: str) -> str:
        name = self.fresh("c")
        self.emit(self.dialect.var_line(name, type_name, init))
        return name

    def open_loop(self, var: str, count: str) -> None:
        self.emit(self.dialect.loop_header(var, count))

    def loop_word(self, node: FNode, getter) -> str:
        return self.header_word(node, getter)

    def binding(self, key: object, storage: str) -> str:
        """The name of input buffer ``key`` (bound on first use)."""
        if key not in self.input_names:
            name = f"in{len(self.inputs)}"
            self.input_names[key] = name
            self.inputs.append(key)
            self.input_types.append(storage)
            self.record_input(key)
        return self.input_names[key]

    def compute_type(self, node: FNode) -> str:
        """The type ``node`` computes in: its own (double for an integer
        result), or for a logical result the operands' (single when any
        operand is single, double when any is an integer: ``int32(2^24+1)``
        differs from ``single(2^24)``)."""
        if node.dtype != "bool":
            return value_dtype(node.dtype)
        if any(a.dtype in IR_OF_INTEGER for a in node.args):
            return "f64"
        types = [a.dtype for a in node.args if a.dtype != "bool"]
        if not types:
            # a dialect that cannot order bools compares logicals as 0/1 values
            ordered = node.op in ("lt", "le", "gt", "ge")
            return "f32" if ordered and not self.dialect.orders_bools else "bool"
        return "f32" if "f32" in types else "f64"

    def elementwise(self, node: FNode, args: list[str]) -> str:
        """Table op ``node.op`` on the rendered ``args`` (their nodes' types),
        raising the domain flag first where MATLAB's result is complex."""
        entry = OPS.get(node.op)
        if entry is None or entry.arity != len(args):
            raise ValueError(f"{self.dialect.key} renderer: no elementwise op {node.op}/{len(args)}")
        t = self.compute_type(node)
        types = [a.dtype for a in node.args]
        if node.dtype in IR_OF_INTEGER and node.op in ("max", "min"):
            # MATLAB converts the other operand to the integer class first:
            # max(1000, uint8(1)) is 255, and a NaN becomes 0 (not ignored)
            args = [x if d == node.dtype else self.let_value(self.convert(x, d, node.dtype), node.dtype)
                    for x, d in zip(args, types)]
            types = [node.dtype] * len(args)
        values = [self.convert(x, d, t) for x, d in zip(args, types)]
        if is_square(node):
            # x.^2 is x*x (the pow helpers' own first case) without their
            # per-element test of the exponent
            result = self.let_value(f"({values[0]} * {values[0]})", t)
        else:
            if needs_domain_check(node):
                self.domain_check(node.op, values, t)
            result = self.elementwise_values(node, values, t)
        if node.dtype in IR_OF_INTEGER:
            return self.let_value(self.convert(result, t, node.dtype), node.dtype)
        return result

    def elementwise_values(self, node: FNode, values: list[str], t: str) -> str:
        expr, helpers = self.dialect.op(OPS[node.op], t, values)
        self.helpers.update(helpers)
        return self.let_value(expr, t if node.dtype in IR_OF_INTEGER else node.dtype)

    def partial_lane_width(self) -> int:
        """Elements a partial-pass thread may take per loop iteration: 4
        floats or 2 doubles, the values of one Philox block (an element per
        Philox call made the image normalisation's partial passes
        Philox-bound), when the reduced layout gives a thread consecutive
        elements: consecutive outputs (A divisible by the width) or a
        contiguous reduced extent (A == 1, R divisible by it); else 1.
        Backends add their own conditions (``partial_lanes``)."""
        a_ext, r_ext, _ = self.plan.reduce_node.attrs
        width = 4 if self.ftype == "f32" else 2
        if a_ext % width == 0 or (a_ext == 1 and r_ext % width == 0):
            return width
        return 1

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * self.indent + line)

    def let_index(self, expr: str) -> str:
        raise NotImplementedError

    def _render(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        """One node at ``idx``: an input load (the backend's ``load``), a
        loop, a uniform, a generator, a reduction's value, a conversion or
        an op of the table."""
        if node.handle is not None:
            return self.load(node, idx, space)
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
        if op == "range_gather":
            return self.range_gather_value(node, idx, space)
        early = self.render_before_operands(node, idx, space)
        if early is not None:
            return early
        args = [self.value(a, idx, space) for a in node.args]
        if op == "cast":
            return self.let_value(self.convert(args[0], node.args[0].dtype, node.dtype), node.dtype)
        return self.elementwise(node, args)

    def load(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        raise NotImplementedError

    def range_gather_value(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        """A range selection's element (``graph.range_gather_node``): the
        position from the element's subscripts, in unsigned 32-bit index
        arithmetic (a negative step wraps, which is exact modulo 2^32): the
        base offset a uniform, the rest constants; then a load of the source
        there."""
        axes, counts = range_gather_structure(node)
        local = self.index_in(idx, space, node.shape)
        total = 1
        for c in counts:
            total *= c
        const, terms, stride = 0, [], 1
        for (first, step, modulus, scale), count in zip(axes, counts):
            j = None
            if count > 1:
                j = f"({local} / {stride}u)" if stride > 1 else local
                if stride * count < total:
                    j = f"({j} % {count}u)"
            if modulus and j is not None:
                terms.append(f"((({first}u + {j} * {step % 2**32}u) % {modulus}u) * {scale}u)")
            elif modulus:
                const += (first % modulus) * scale
            else:
                const += first
                if j is not None and step:
                    terms.append(f"{j} * {step % 2**32}u")
            stride *= count
        base = self.header_word(node, range_gather_base)
        pos = self.let_index(" + ".join([base, f"{const % 2**32}u"] + terms))
        source = node.args[0]
        return self.value(source, pos, source.shape)

    def render_before_operands(self, node: FNode, idx: str, space: tuple[int, ...]) -> str | None:
        """A backend's own form of ``node`` computed without rendering its
        operands first (None: the common path)."""
        return None

    def index_in(self, idx: str, space: tuple[int, ...], shape: tuple[int, ...]) -> str:
        """Linear index into an array of ``shape`` broadcast over ``space``."""
        if numel(shape) == 1:
            return "0u"
        if normalized_shape(shape) == normalized_shape(space):
            return idx
        terms = []
        space_stride = 1
        own_stride = 1
        for k, extent in enumerate(space):
            own = shape[k] if k < len(shape) else 1
            if own != 1:
                sub = f"(({idx} / {space_stride}u) % {extent}u)" if space_stride > 1 else f"({idx} % {extent}u)"
                terms.append(sub if own_stride == 1 else f"{sub} * {own_stride}u")
            space_stride *= extent
            own_stride *= own
        return self.let_index(" + ".join(terms) if terms else "0u")

    def domain_check(self, op: str, args: list[str], t: str) -> None:
        """Raise the kernel's domain flag where ``op`` would need MATLAB's
        complex result (the graph is then evaluated on the host). The
        backend provides ``literal(value, t)`` and ``math_name(name, t)``."""
        x = args[0]
        zero = self.literal(0.0, t)
        one = self.literal(1.0, t)
        absolute = self.math_name("abs", t)
        conditions = {
            "sqrt": f"{x} < {zero}", "log": f"{x} < {zero}", "log2": f"{x} < {zero}",
            "log10": f"{x} < {zero}", "log1p": f"{x} < {self.literal(-1.0, t)}",
            "asin": f"{absolute}({x}) > {one}", "acos": f"{absolute}({x}) > {one}",
        }
        if op == "pow":
            cond = f"{x} < {zero} && {args[1]} != {self.math_name('floor', t)}({args[1]})"
        else:
            cond = conditions[op]
        self.emit(f"if ({cond}) {{ flag[0] = 1u; }}")

    def reduction_value(self, node: FNode, out_idx: str) -> str:
        """Value of reduction ``node`` at its output index ``out_idx``: a
        loop over the partial sums (when a partial pass ran) or over the
        reduced extent. The backend provides ``declare``, ``open_loop``,
        ``let_index``, ``let_value(expr, dtype)``, ``type_name``,
        ``combine(op, acc, value, t)``, ``reduce_init(op, t)`` and ``literal``;
        for block-per-output final passes (``block_final``) also the hooks
        of ``block_reduction_value``."""
        a_ext, r_ext, _ = node.attrs
        t = node.dtype
        a = self.let_index(f"{out_idx} % {a_ext}u")
        c = self.let_index(f"{out_idx} / {a_ext}u")
        chunks = self.plan.partial_of.get(node.uid)
        if chunks is not None and self.block_final:
            return self.block_reduction_value(node, a, c, chunks)
        acc = self.declare(self.type_name(t), self.reduce_init(node.op, t))
        if chunks is not None:
            buf = self.binding(("partial", node.uid), self.type_name(t))
            p = self.fresh("p")
            self.open_loop(p, f"{chunks}u")
            self.indent += 1
            value = self.let_value(f"{buf}[{c} * {a_ext * chunks}u + {a} + {a_ext}u * {p}]", t)
            self.emit(f"{acc} = {self.combine(node.op, acc, value, t)};")
        else:
            r = self.fresh("r")
            self.open_loop(r, f"{r_ext}u")
            self.indent += 1
            self.memo.append({})
            j = self.let_index(f"{a} + {a_ext}u * ({r} + {r_ext}u * {c})")
            x = node.args[0]
            value = self.convert(self.value(x, j, x.shape), x.dtype, t)
            self.emit(f"{acc} = {self.combine(node.op, acc, value, t)};")
            self.memo.pop()
        self.indent -= 1
        self.emit("}")
        if node.op == "reduce_mean":
            return self.let_value(self.quotient(acc, self.literal(float(r_ext), t), t), t)
        return acc

    def quotient(self, a: str, b: str, t: str) -> str:
        """``a / b`` in type ``t``, IEEE-exact as MATLAB's (a backend whose
        ``/`` is not overrides it)."""
        return f"{a} / {b}"

    def block_reduction_value(self, node: FNode, a: str, c: str, chunks: int) -> str:
        """The final value of ``node`` for output (a, c) computed by a whole
        block/workgroup: each thread combines a strided share of the
        ``chunks`` partials, then the shares fold in shared memory; every
        thread gets the result. The backend provides ``block_loop(var,
        count)`` (opens the strided loop), ``fold_loop(var)`` (opens the
        halving loop), ``local_id``, ``barrier`` and ``shared_array(t)``."""
        a_ext, r_ext, _ = node.attrs
        t = node.dtype
        buf = self.binding(("partial", node.uid), self.type_name(t))
        acc = self.declare(self.type_name(t), self.reduce_init(node.op, t))
        self.block_loop("p", f"{chunks}u")
        value = f"{buf}[{c} * {a_ext * chunks}u + {a} + {a_ext}u * p]"
        self.emit(f"  {acc} = {self.combine(node.op, acc, value, t)};")
        self.emit("}")
        sh = self.shared_array(t)
        tid = self.local_id
        self.emit(f"{sh}[{tid}] = {acc};")
        self.emit(self.barrier)
        self.fold_loop("w")
        folded = self.combine(node.op, f"{sh}[{tid}]", f"{sh}[{tid} + w]", t)
        self.emit(f"  if ({tid} < w) {{ {sh}[{tid}] = {folded}; }}")
        self.emit(f"  {self.barrier}")
        self.emit("}")
        total = self.let_value(f"{sh}[0]", t)
        # the array is rewritten for the block's next output
        self.emit(self.barrier)
        if node.op == "reduce_mean":
            return self.let_value(self.quotient(total, self.literal(float(r_ext), t), t), t)
        return total

    def generator(self, node: FNode, i: str) -> str:
        """Generator ``node`` (linspace, colon, rand, randn) at element ``i``.
        The backend provides ``scalar``, ``u01_f64(words, half)``,
        ``u01_f32(words, word)`` and ``box_muller`` (the (r*sin, r*cos) of
        a uniform pair; runtime/_philox.py's streams)."""
        t = node.dtype
        d = self.dialect
        if node.op == "colon":
            start = self.scalar(node, attr0, t)
            step = self.scalar(node, attr1, t)
            return self.let_value(f"({start} + {d.cast(i, t)} * {step})", t)
        if node.op == "linspace":
            start = self.scalar(node, attr0, t)
            stop = self.scalar(node, attr1, t)
            step = self.scalar(node, linspace_step, t)
            # the last point is exactly the end (MATLAB's linspace)
            last = f"{i} == {max(node.attrs[2] - 1, 0)}u"
            return self.let_value(d.select(last, stop, f"{start} + {d.cast(i, t)} * {step}"), t)
        per_block = 2 if t == "f64" else 4
        # In a vector iteration the lanes of one thread are exactly one
        # Philox block: one call serves them all (memoised per block).
        lane = self.vector_lanes.get(i) if len(self.vector_lanes) == per_block else None
        words = self.philox_block(node, self.vector_index if lane is not None else None, i, per_block)
        odd = f"({i} & 1u) == 1u"
        if node.op == "rand":
            if t == "f64":
                self.helpers.add("u01_f64")
                if lane is not None:
                    return self.let_value(self.u01_f64(words, lane), t)
                return self.let_value(d.select(odd, self.u01_f64(words, 1), self.u01_f64(words, 0)), t)
            self.helpers.add("u01_f32")
            return self.let_value(self.u01_f32(words, f"{lane}u" if lane is not None else f"{i} & 3u"), t)
        pair = f"{lane & 2}u" if lane is not None else self.let_index(f"({i} & 2u)")
        sin_v, cos_v = self.box_muller(node, words, pair, t)
        if lane is not None:
            return sin_v if lane & 1 else cos_v
        return self.let_value(d.select(odd, sin_v, cos_v), t)

    def lookup(self, key: object) -> object | None:
        """What an enclosing memo scope holds for ``key`` (None: nothing)."""
        for scope in reversed(self.memo):
            if key in scope:
                return scope[key]
        return None

    def philox_block(self, node: FNode, block: str | None, i: str, per_block: int) -> str:
        """The Philox words of random ``node``'s block for element ``i``.

        ``block`` is the block index expression when the caller knows it (a
        thread's lanes share one block): then the words are memoised per node
        and block. The backend provides ``philox_call(lo, hi, k0, k1)`` and
        ``carry``; the counter is offset inside replayed loops.
        """
        key = ("philox", node.uid, block)
        if block is not None:
            found = self.lookup(key)
            if found is not None:
                return found
        k0 = self.header_word(node, attr0)
        k1 = self.header_word(node, attr1)
        c_lo = self.header_word(node, counter_lo)
        c_hi = self.header_word(node, counter_hi)
        c_lo, c_hi = self.offset_counter(c_lo, c_hi)
        self.helpers.add("philox")
        if block is None:
            block = self.let_index(f"{i} >> {1 if per_block == 2 else 2}u")
        lo = self.let_index(f"{c_lo} + {block}")
        hi = self.let_index(f"{c_hi} + {self.carry(lo, c_lo)}")
        words = self.philox_call(lo, hi, k0, k1)
        self.memo[-1][key] = words
        return words

    def value(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        """The expression (a temporary) for ``node`` at ``idx``, rendered once per scope."""
        # A uniform has one value everywhere: one argument, whatever the index.
        key = (node.uid, "") if node.op in ("scalar", "fill") and node.handle is None else (node.uid, idx)
        for scope in reversed(self.memo):
            if key in scope:
                return scope[key]
        text = self._render(node, idx, space)
        self.memo[-1][key] = text
        return text


class LoopEmitterMixin:
    """Rendering of ``loop`` nodes (``fusion/loops.py``), shared by the
    backends. A backend provides ``declare(type_name, init)``, ``u32_type``,
    ``open_loop(var, count)``, ``carry(a, b)`` (1 when ``a < b``, as u32),
    ``type_name(dtype)`` and ``loop_word(node, getter)`` (a u32 uniform
    taken from the loop node, re-bindable by the render cache)."""

    loop_offsets: list[tuple[str, str]]
    #: element name -> lane of a vector iteration (set by each backend)
    vector_lanes: dict[str, int]

    def loop_value(self, node: FNode, idx: str, space: tuple[int, ...]) -> str:
        spec, slot = node.attrs
        local = self.index_in(idx, space, node.shape)
        # In a vector iteration (CUDA) all lanes run in one loop, so lanes
        # share what they can (a Philox block per iteration).
        lanes = self.vector_lanes
        group = list(lanes) if local in lanes and tuple(node.shape) == tuple(space) else [local]
        key = ("loop", id(spec), local)
        found = self.lookup(key)
        if found is not None:
            return found[slot]
        names = self.render_loop(node, group)
        for index, per_lane in zip(group, names):
            self.memo[-1][("loop", id(spec), index)] = per_lane
        return self.memo[-1][key][slot]

    def render_loop(self, node: FNode, indices: list[str]) -> list[list[str]]:
        """The loop computing ``node``'s spec at every index of ``indices``
        (one thread's elements); returns the carried variables per index."""
        from matfuse.accelerate.fusion.loops import template_nodes, variant_uids

        spec = node.attrs[0]
        shape = tuple(node.shape)
        m = spec.carried
        variant = variant_uids(spec)
        carried: list[list[str]] = []
        for i in indices:
            inits = [self.value(a, i, shape) for a in node.args[:m]]
            # Loop-invariant parts of the body are computed once, before the loop.
            for n in template_nodes(spec):
                if n.uid not in variant and n.args and n.handle is None:
                    self.value(n, i, shape)
            carried.append([self.declare(self.type_name(p.dtype), init)
                            for p, init in zip(spec.placeholders, inits)])
        count = self.loop_word(node, _loop_count)
        offset = None
        if spec.has_random:
            d_lo = self.loop_word(node, _loop_delta_lo)
            d_hi = self.loop_word(node, _loop_delta_hi)
            offset = (self.declare(self.u32_type, "0u"), self.declare(self.u32_type, "0u"))
        k = self.fresh("k")
        self.open_loop(k, count)
        self.indent += 1
        self.memo.append({(p.uid, i): v for i, names in zip(indices, carried)
                          for p, v in zip(spec.placeholders, names)})
        if offset is not None:
            self.loop_offsets.append(offset)
        new = [[self.value(root, i, shape) for root in spec.roots] for i in indices]
        for names, values in zip(carried, new):
            for var, value in zip(names, values):
                self.emit(f"{var} = {value};")
        if offset is not None:
            self.loop_offsets.pop()
            lo, hi = offset
            bumped = self.let_index(f"{lo} + {d_lo}")
            self.emit(f"{hi} = {hi} + {d_hi} + {self.carry(bumped, lo)};")
            self.emit(f"{lo} = {bumped};")
        self.memo.pop()
        self.indent -= 1
        self.emit("}")
        return carried

    def offset_counter(self, c_lo: str, c_hi: str) -> tuple[str, str]:
        """A random node's counter inside a loop: the template's counter plus
        the running offset ``k * delta`` (64-bit add with carry)."""
        if not self.loop_offsets:
            return c_lo, c_hi
        off_lo, off_hi = self.loop_offsets[-1]
        lo = self.let_index(f"{c_lo} + {off_lo}")
        hi = self.let_index(f"{c_hi} + {off_hi} + {self.carry(lo, c_lo)}")
        return lo, hi


def _loop_count(node: FNode) -> int:
    return node.attrs[0].count


def _loop_delta_lo(node: FNode) -> int:
    return node.attrs[0].delta & 0xFFFFFFFF


def _loop_delta_hi(node: FNode) -> int:
    return node.attrs[0].delta >> 32
