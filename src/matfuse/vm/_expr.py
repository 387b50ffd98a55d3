"""Expression lowering: AST expression -> Python closure ``f(frame) -> value``.

Multi-valued forms (function calls with nargout, ``c{:}``, ``s.f`` on struct
arrays) lower to ``g(frame, nargout) -> list`` via ``ExprCompiler.multi``.
Binary/unary operators take a Python-float fast path inside the closure and
call ``runtime.ops`` only otherwise.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime import indexing as _ix
from matfuse.runtime import ops as _ops
from matfuse.runtime.registry import lookup as lookup_builtin
from matfuse.runtime.values import CellArray, StringArray, StructArray, char_array
from matfuse.vm import _calls
from matfuse.vm import _chains
from matfuse.vm._binops import PY_OPS, make_binary
from matfuse.vm._call_sites import make_call_site
from matfuse.vm._calls import one_value
from matfuse.vm._members import element_field_value, member_index, member_list, super_call
from matfuse.vm.function_context import FunctionContext
from matfuse.vm.names import contains_end, expr_reads
from matfuse.vm.unparse import unparse

Closure = Callable[[Any], Any]

MultiClosure = Callable[[Any, int], list]

_NO_BRACE_RESULTS = "Brace indexing produced no results."

# Literal ranges up to this many elements (``(1:10)``) are built once, at
# compile time; larger ones are built where they run.
_CONSTANT_RANGE_MAX = 1024


def _constant_range(node: ast.Range) -> np.ndarray | None:
    """The row ``a:b`` of two whole-number literals, when it has 2 to
    ``_CONSTANT_RANGE_MAX`` elements; None otherwise."""
    start, stop = node.start, node.stop
    if type(start) is not ast.Number or type(stop) is not ast.Number \
            or start.int_class is not None or stop.int_class is not None:
        return None
    a, b = start.value, stop.value
    if type(a) is not float or type(b) is not float or not a.is_integer() \
            or not 1.0 <= b - a < _CONSTANT_RANGE_MAX:
        return None
    row = _ops.colon_range(a, None, b)
    row.flags.writeable = False
    return row


def _one_brace_value(node: ast.Expr) -> bool:
    """``c{1}``, ``tok{1}{1}``, ``c{2, 1}``: brace indexing of a name by
    whole-number literals only, which gives exactly one value (or an error),
    so as a call's argument it needs no comma-separated-list expansion."""
    if type(node) is not ast.Index or node.kind != "{}" or not 0 < len(node.args) <= 2:
        return False
    for arg in node.args:
        if type(arg) is not ast.Number or arg.int_class is not None \
                or type(arg.value) is not float or not arg.value.is_integer():
            return False
    base = node.base
    return type(base) is ast.Ident or _one_brace_value(base)


#: ``gpuArray.NAME(...)`` static constructors: NAME(..., 'gpuArray')
_GPU_STATIC_TYPENAME = frozenset({"zeros", "ones", "eye", "true", "false", "Inf", "inf",
                                  "NaN", "nan", "rand", "randn", "randi"})
#: ... and those built on the host, then uploaded: gpuArray(NAME(...))
_GPU_STATIC_UPLOADED = frozenset({"linspace", "logspace", "colon"})


def gpuarray_static_call(node: ast.Expr) -> ast.Expr:
    """``gpuArray.zeros(2, 3)`` (MATLAB's static methods of the gpuArray
    class) as the call ``zeros(2, 3, 'gpuArray')``; ``gpuArray.linspace(a,
    b)`` as ``gpuArray(linspace(a, b))``; any other node unchanged."""
    t = type(node)
    if t is ast.Index and node.kind == "()" and type(node.base) is ast.Field:
        field, args = node.base, list(node.args)
    elif t is ast.Field:
        field, args = node, []
    else:
        return node
    owner = field.base
    if type(owner) is not ast.Ident or owner.name != "gpuArray":
        return node
    name, span = field.name, node.span
    if name in _GPU_STATIC_TYPENAME:
        return ast.Index(span, ast.Ident(span, name), args + [ast.String(span, "gpuArray")])
    if name in _GPU_STATIC_UPLOADED:
        return ast.Index(span, ast.Ident(span, "gpuArray"),
                         [ast.Index(span, ast.Ident(span, name), args)])
    return node


def _row_literal(fns: tuple[Closure, ...], concat: Callable[[list], Any]) -> Closure:
    """``[a b c]`` of single values (no cs-lists): what the general matrix
    closure gives, one comprehension and one type pass for float rows."""
    def row_literal(fr: Any) -> Any:
        values = [fn(fr) for fn in fns]
        for v in values:
            if type(v) is not float:
                return concat([values])
        if len(values) == 1:
            return values[0]
        return np.array([values], dtype=np.float64)
    return row_literal


class EndBinding:
    """Compile-time record of the value an ``end`` refers to at run time."""

    __slots__ = ("cell", "pos", "count")

    def __init__(self, cell: list, pos: int, count: int):
        self.cell = cell
        self.pos = pos
        self.count = count


class ExprCompiler:
    """Lowers expressions of one function (or script) body.

    ``ctx`` is the compiler's FunctionContext: scope, global/persistent names.
    """

    def __init__(self, ctx: Any):
        self.ctx = ctx
        self._end: EndBinding | None = None

    # ------------------------------------------------------------ entry points
    def value(self, node: ast.Expr) -> Closure:
        node = gpuarray_static_call(node)
        t = type(node)
        if (t is ast.Field or t is ast.DynField or t is ast.Index) \
                and _chains.postfix_spine_is_deep(node):
            chain = _chains.compile_postfix_chain(self, node)
            what = "Brace indexing produced no results." if t is ast.Index and node.kind == "{}" else ""
            return lambda fr: one_value(chain(fr, 1), what)
        method = getattr(self, "_v_" + t.__name__, None)
        if method is None:
            raise MatlabError("MATLAB:parse", f"Unsupported expression {type(node).__name__}.")
        return method(node)

    def multi(self, node: ast.Expr) -> MultiClosure:
        """``g(fr, nargout) -> list``: calls honour nargout, cs-lists expand."""
        node = gpuarray_static_call(node)
        t = type(node)
        if t is ast.Ident:
            return self._m_ident(node)
        if (t is ast.Field or t is ast.DynField or t is ast.Index) \
                and _chains.postfix_spine_is_deep(node):
            return _chains.compile_postfix_chain(self, node)
        if t is ast.Index:
            return self._m_index(node)
        if t is ast.Field:
            members = self._member_list(node)
            package = self._package_function(node, lambda fr: None)
            if package is not None:     # f(containers.Map): a dotted builtin
                root = node.base.name
                return lambda fr, nargout: members(fr, nargout) if root in fr \
                    else [package(fr)]
            return members
        if t is ast.DynField:
            fields = self._fieldlist(node)
            return lambda fr, nargout: fields(fr)
        single = self.value(node)
        return lambda fr, nargout: [single(fr)]

    def yields_list(self, node: ast.Expr) -> bool:
        """Whether ``multi(node)`` can give other than one value (a call,
        an index or a field: nargout and cs-lists matter); else it is
        ``[value(node)]``."""
        t = type(gpuarray_static_call(node))
        return t is ast.Ident or t is ast.Index or t is ast.Field or t is ast.DynField

    def is_multi(self, node: ast.Expr) -> bool:
        """Whether ``node`` can yield a comma-separated list (``c{:}``, ``s.f``)."""
        t = type(node)
        return (t is ast.Index and node.kind == "{}") or t is ast.Field or t is ast.DynField

    # ---------------------------------------------------------------- leaves
    def _v_Number(self, node: ast.Number) -> Closure:
        value = node.value
        if isinstance(value, complex):
            const = np.array([[value]], dtype=np.complex128)
            return lambda fr: const.copy()
        value = float(value)
        return lambda fr: value

    def _v_String(self, node: ast.String) -> Closure:
        text = node.value
        if node.kind == "string":
            return lambda fr: StringArray.scalar(text)
        const = char_array(text)
        const.flags.writeable = False   # shared by every use, as literal ranges
        return lambda fr: const

    def _v_Colon(self, node: ast.Colon) -> Closure:
        return lambda fr: _ix.COLON

    def _v_End(self, node: ast.End) -> Closure:
        binding = self._end
        if binding is None:
            raise MatlabError("MATLAB:parse",
                              "'end' is only valid inside an index expression.", node.span)
        cell, pos, count = binding.cell, binding.pos, binding.count

        def end_value(fr: Any) -> Any:
            return _ix.end_value(cell[0], pos, count)
        return end_value

    def _v_Ident(self, node: ast.Ident) -> Closure:
        name = node.name
        read = self.ctx.special_reader(name)
        call = _calls.NameCall(name, self.ctx.scope, node.span)
        if read is not None:
            def special(fr: Any) -> Any:
                value = read(fr)
                if value is not _calls.MISSING:
                    return value
                return one_value(call(fr, [], 1), _calls.no_output_text(name))
            return special

        span = node.span
        if name in _calls.CALL_COUNTS:
            return _calls.call_count_reader(name, call, span)

        def ident(fr: Any) -> Any:
            try:
                return fr[name]
            except KeyError:
                pass
            try:
                return call.value(fr, [])
            except MatlabError as err:
                if err.span is None:
                    err.span = span
                raise
        return ident

    def _m_ident(self, node: ast.Ident) -> MultiClosure:
        name = node.name
        read = self.ctx.special_reader(name) or _calls.plain_reader(name)
        call = _calls.NameCall(name, self.ctx.scope, node.span)

        def ident(fr: Any, nargout: int) -> list:
            value = read(fr)
            if value is not _calls.MISSING:
                return [value]
            return call(fr, [], nargout)
        return ident

    # ------------------------------------------------------------- operators
    def _v_Binary(self, node: ast.Binary) -> Closure:
        op = node.op
        if _chains.binary_spine_is_deep(node):
            return _chains.compile_binary_chain(self, node)
        if op == "&&" or op == "||":
            return self._short_circuit(op, self.value(node.left), self.value(node.right))
        if op in PY_OPS:
            return make_binary(op, self._operand(node.left), self._operand(node.right))
        left = self.value(node.left)
        right = self.value(node.right)
        binary = _ops.binary
        return lambda fr: binary(op, left(fr), right(fr))

    def _operand(self, node: ast.Expr) -> tuple[str, Any, Closure]:
        """How a binary operand is fetched: a plain variable read inline, a
        float constant, or a closure call."""
        if type(node) is ast.Number and not isinstance(node.value, complex):
            return "const", float(node.value), self.value(node)
        if type(node) is ast.Ident and self.ctx.special_reader(node.name) is None \
                and node.name not in _calls.CALL_COUNTS:
            return "var", node.name, self.value(node)
        return "expr", None, self.value(node)

    def _short_circuit(self, op: str, left: Closure, right: Closure) -> Closure:
        truth = _calls.scalar_truth
        if op == "&&":
            return lambda fr: truth(left(fr), op) and truth(right(fr), op)
        return lambda fr: truth(left(fr), op) or truth(right(fr), op)

    def _v_Unary(self, node: ast.Unary) -> Closure:
        op = node.op
        operand = self.value(node.operand)
        unary = _ops.unary
        if op == "-":
            def neg(fr: Any) -> Any:
                a = operand(fr)
                return -a if type(a) is float else unary("-", a)
            return neg
        if op == "~":
            def not_(fr: Any) -> Any:
                a = operand(fr)
                if type(a) is bool:
                    return not a
                if type(a) is float and a == a:
                    return a == 0.0
                return unary("~", a)
            return not_
        return lambda fr: unary(op, operand(fr))

    def _v_Postfix(self, node: ast.Postfix) -> Closure:
        operand = self.value(node.operand)
        fn = _ops.ctranspose if node.op == "'" else _ops.transpose

        def post(fr: Any) -> Any:
            a = operand(fr)
            return a if type(a) is float else fn(a)
        return post

    def _v_Range(self, node: ast.Range) -> Closure:
        start = self.value(node.start)
        stop = self.value(node.stop)
        if node.step is None:
            constant = _constant_range(node)
            if constant is not None:
                # Shared by every use: frozen, so the runtime's in-place
                # paths copy on write (and its reference makes it never
                # look exclusive to an assignment).
                return lambda fr: constant
            return lambda fr: _ops.colon_range(start(fr), None, stop(fr))
        step = self.value(node.step)
        return lambda fr: _ops.colon_range(start(fr), step(fr), stop(fr))

    # ------------------------------------------------------------ aggregates
    def _elements(self, rows: list[list[ast.Expr]]) -> Callable[[Any], list[list[Any]]]:
        compiled = [[(self.is_multi(e), self.multi(e) if self.is_multi(e) else self.value(e))
                     for e in row] for row in rows]

        def build(fr: Any) -> list[list[Any]]:
            out = []
            for row in compiled:
                vals: list[Any] = []
                for multi, fn in row:
                    if multi:
                        vals.extend(fn(fr, 1))
                    else:
                        vals.append(fn(fr))
                out.append(vals)
            return out
        return build

    def _v_Matrix(self, node: ast.Matrix) -> Closure:
        rows = [r for r in node.rows if r]
        if not rows:
            return lambda fr: np.zeros((0, 0))
        concat = _ops.concat
        if len(rows) == 1 and not any(self.is_multi(e) for e in rows[0]):
            return _row_literal(tuple(self.value(e) for e in rows[0]), concat)
        build = self._elements(rows)

        def matrix(fr: Any) -> Any:
            values = build(fr)
            # All-float rows of equal length: the common numeric literal.
            width = len(values[0])
            if all(len(r) == width and all(type(v) is float for v in r) for r in values):
                if len(values) == 1 and width == 1:
                    return values[0][0]
                return np.array(values, dtype=np.float64)
            return concat(values)
        return matrix

    def _v_CellLit(self, node: ast.CellLit) -> Closure:
        rows = [r for r in node.rows if r]
        if not rows:
            return lambda fr: CellArray.empty((0, 0))
        build = self._elements(rows)
        return lambda fr: _ops.cell_concat(build(fr))

    # -------------------------------------------------------------- functions
    def _v_FuncHandle(self, node: ast.FuncHandle) -> Closure:
        name = node.name
        scope = self.ctx.scope
        return lambda fr: _calls.make_named_handle(name, scope, fr)

    def _v_AnonFunc(self, node: ast.AnonFunc) -> Closure:
        params = list(node.params)
        free = sorted(expr_reads(node.body, set()) - set(params))
        inner = ExprCompiler(FunctionContext(self.ctx.scope, set(), None))
        if inner.yields_list(node.body):
            body, value = inner.multi(node.body), None
        else:
            value = inner.value(node.body)
            body = lambda fr, nargout: [value(fr)]  # noqa: E731 - what multi() gives
        text = "@(" + ",".join(params) + ")" + unparse(node.body)
        scope = self.ctx.scope
        return lambda fr: _calls.make_anonymous(fr, params, free, body, text, scope, value)

    # ------------------------------------------------------------- indexing
    def index_args(self, args: list[ast.Expr], end_cell: list | None) -> Callable[[Any], list]:
        """Closure building the index/argument list (cs-lists expanded)."""
        saved = self._end
        specs = []
        for k, a in enumerate(args):
            if end_cell is not None:
                self._end = EndBinding(end_cell, k, len(args))
            multi = self.is_multi(a)
            specs.append((multi, self.multi(a) if multi else self.value(a)))
        self._end = saved
        if not any(m for m, _ in specs):
            fns = [f for _, f in specs]
            if len(fns) == 1:
                f0 = fns[0]
                return lambda fr: [f0(fr)]
            if len(fns) == 2:
                f0, f1 = fns
                return lambda fr: [f0(fr), f1(fr)]
            return lambda fr: [f(fr) for f in fns]

        def build(fr: Any) -> list:
            out: list = []
            for multi, fn in specs:
                if multi:
                    out.extend(fn(fr, 1))
                else:
                    out.append(fn(fr))
            return out
        return build

    def index_parts(self, node: ast.Index) -> tuple[list | None, Callable[[Any], list]]:
        uses_end = any(contains_end(a) for a in node.args)
        cell = [None] if uses_end else None
        return cell, self.index_args(node.args, cell)

    def _package_function(self, node: ast.Expr, plain: Closure) -> Closure | None:
        """``pkg.name(args)`` or ``pkg.name`` naming a dotted builtin
        (``containers.Map``): called when no variable ``pkg`` exists (else
        ``plain``, the ordinary field/index reading)."""
        head, args = (node.base, node.args) if type(node) is ast.Index else (node, [])
        if type(node) is ast.Index and node.kind != "()":
            return None
        if type(head) is not ast.Field or type(head.base) is not ast.Ident:
            return None
        package = head.base.name
        name = f"{package}.{head.name}"
        if lookup_builtin(name) is None or self.ctx.special_reader(package) is not None:
            return None
        build = self.index_args(args, None)
        site = _calls.NameCall(name, self.ctx.scope, head.span)

        def package_call(fr: Any) -> Any:
            if package in fr:
                return plain(fr)
            return site.value(fr, build(fr))
        return package_call

    def _v_Index(self, node: ast.Index) -> Closure:
        plain = self._v_index(node)
        return self._package_function(node, plain) or plain

    def _v_index(self, node: ast.Index) -> Closure:
        base = node.base
        if (node.kind == "()" and type(base) is ast.Ident
                and self.ctx.special_reader(base.name) is None):
            if (0 < len(node.args) <= 4 and not any(contains_end(a) for a in node.args)
                    and not any((self.is_multi(a) and not _one_brace_value(a))
                                or type(a) is ast.Colon for a in node.args)):
                fns = [self.value(a) for a in node.args]
                return make_call_site(base.name, fns, self.ctx, base.span)
            cell, build = self.index_parts(node)
            return _calls.ident_paren_value(base.name, cell, build, self.ctx, base.span)
        multi = self._m_index(node)
        what = None
        if node.kind == "{}":
            what = "Brace indexing produced no results."
            brace = self._brace_value(node, multi)
            if brace is not None:
                return brace
        return lambda fr: one_value(multi(fr, 1), what or "")

    def _brace_value(self, node: ast.Index, multi: MultiClosure) -> Closure | None:
        """``c{i}`` / ``c{i, j}`` (``tok{1}{1}`` too) with plain subscripts (no
        ``end``, no cs-lists, no colon) in a one-value context: the value read
        with one ``brace_get``, without the comma-separated-list layers.
        ``multi`` (the general reading) handles a name that is no variable."""
        base = node.base
        args = node.args
        if not 0 < len(args) <= 2 or any(contains_end(a) or self.is_multi(a)
                                         or type(a) is ast.Colon for a in args):
            return None
        fns = [self.value(a) for a in args]
        f0 = fns[0]
        f1 = fns[1] if len(fns) == 2 else None
        brace_get = _ix.brace_get
        if type(base) is ast.Ident:
            if self.ctx.special_reader(base.name) is not None:
                return None
            name, span = base.name, base.span
            missing = _calls.MISSING

            def brace_ident(fr: Any) -> Any:
                v = fr.get(name, missing)
                if f1 is None and type(v) is CellArray:
                    # c{k}: one whole-number subscript inside a matrix cell
                    i = f0(fr)
                    where = _ix.matrix_slot(v.data, i) if type(i) is float else None
                    if where is not None:
                        return v.data[where]
                    values = brace_get(v, [i])
                    return one_value(values, _NO_BRACE_RESULTS)
                if v is missing:
                    return one_value(multi(fr, 1), _NO_BRACE_RESULTS)   # not a variable
                try:
                    values = brace_get(v, [f0(fr)] if f1 is None else [f0(fr), f1(fr)])
                except MatlabError as err:
                    if err.span is None:
                        err.span = span
                    raise
                return one_value(values, _NO_BRACE_RESULTS)
            return brace_ident
        if type(base) is ast.Field or type(base) is ast.SuperRef:
            return None
        base_value = self.value(base)

        def brace_expr(fr: Any) -> Any:
            v = base_value(fr)
            return one_value(brace_get(v, [f0(fr)] if f1 is None else [f0(fr), f1(fr)]),
                             _NO_BRACE_RESULTS)
        return brace_expr

    def _m_index(self, node: ast.Index) -> MultiClosure:
        package = self._package_function(node, lambda fr: None)
        if package is not None:
            plain_multi = self._m_index_plain(node)

            def package_multi(fr: Any, nargout: int) -> list:
                if node.base.base.name in fr:
                    return plain_multi(fr, nargout)
                return [package(fr)]
            return package_multi
        return self._m_index_plain(node)

    def _m_index_plain(self, node: ast.Index) -> MultiClosure:
        cell, build = self.index_parts(node)
        kind = node.kind
        base = node.base
        if type(base) is ast.Ident:
            return _calls.ident_index(base.name, kind, cell, build, self.ctx, base.span)
        if type(base) is ast.Field:
            return member_index(self, base, kind, cell, build)
        if type(base) is ast.SuperRef:
            return lambda fr, nargout: super_call(fr, base, build(fr), nargout)
        base_value = self.value(base)

        def index_value(fr: Any, nargout: int) -> list:
            return _calls.index_into(fr, base_value(fr), kind, cell, build, nargout)
        return index_value

    def _member_list(self, node: ast.Field) -> MultiClosure:
        return member_list(self, node)

    def _fieldlist(self, node: ast.Expr) -> Callable[[Any], list]:
        if type(node) is ast.Field:
            member = self._member_list(node)
            return lambda fr: member(fr, 1)
        base = self.value(node.base)
        name_expr = self.value(node.name_expr)
        return lambda fr: _ix.field_get(base(fr), _calls.field_name(name_expr(fr)))

    def _v_Field(self, node: ast.Field) -> Closure:
        fields = self._fieldlist(node)

        def field(fr: Any) -> Any:
            return one_value(fields(fr))
        if type(node) is ast.Field:
            field = element_field_value(self, node, field) or field
            return self._package_function(node, field) or field
        return field

    def _v_DynField(self, node: ast.DynField) -> Closure:
        """``s.(name)`` read for one value: a scalar struct's field is one
        lookup in its element (the general field reading otherwise)."""
        base = self.value(node.base)
        name_expr = self.value(node.name_expr)
        field_get = _ix.field_get
        field_name = _calls.field_name

        def dynamic_field(fr: Any) -> Any:
            v = base(fr)
            name = field_name(name_expr(fr))
            if type(v) is StructArray:
                data = v.data
                if data.size == 1:
                    element = data.item(0)
                    if name in element:
                        return element[name]
            return one_value(field_get(v, name))
        return dynamic_field

    def _v_SuperRef(self, node: ast.SuperRef) -> Closure:
        return lambda fr: one_value(super_call(fr, node, [], 1))

    def _v_Tilde(self, node: ast.Tilde) -> Closure:
        raise MatlabError("MATLAB:parse", "Invalid use of '~'.", node.span)
