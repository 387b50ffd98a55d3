"""Statement lowering: AST statement -> closure ``s(frame) -> signal``.

A statement returns None to go on, or BREAK/CONTINUE/RETURN. Every statement
closure attaches its span and a stack frame to a MatlabError passing through
and turns stray Python exceptions into MATLAB errors (``from_python_exception``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError, Span
from matfuse.lang import ast
from matfuse.runtime import ops as _ops
from matfuse.runtime.values import (
    CellArray, DeviceValue, StringArray, StructArray, is_char, keep_visibility, to_str,
)
from matfuse.runtime.classdef_arrays import ObjectArray, object_columns
from matfuse.vm import _calls
from matfuse.runtime import hints
from matfuse.runtime._concat import append_row
from matfuse.vm._assign import TargetCompiler, exclusive, is_delete_rhs
from matfuse.vm._csl_assign import csl_multi_assign, is_csl_target
from matfuse.vm._display_call import display_named, is_display_of_variable
from matfuse.vm._replay import replayable_body
from matfuse.vm.parfor_compiler import compile_parfor
from matfuse.vm.workspace import annotate_error, internal_error
from matfuse.runtime.device_router import device_router

BREAK, CONTINUE, RETURN = 1, 2, 3
Stmt = Callable[[Any], Any]


def guard(raw: Stmt, span: Span) -> Stmt:
    """Wrap a statement so errors get its span and frame."""
    def stmt(fr: Any) -> Any:
        try:
            return raw(fr)
        except MatlabError as err:
            annotate_error(err, fr, span)
            raise
        except Exception as exc:  # noqa: BLE001 - reported as a MATLAB error, not swallowed
            raise internal_error(exc, fr, span) from None
    return stmt


def truth(v: Any) -> bool:
    """``if``/``while`` condition truth, with the scalar fast paths."""
    t = type(v)
    if t is bool:
        return v
    if t is float:
        if v != v:
            raise MatlabError("MATLAB:nologicalnan", "NaN's cannot be converted to logicals.")
        return v != 0.0
    return bool(_ops.is_true(v))


def iterate_columns(value: Any):
    """What ``for v = value`` assigns on each iteration (columns of value)."""
    t = type(value)
    if t is float or t is bool:
        return (value,)
    if t is np.ndarray:
        if value.size == 0:
            return ()
        rows = value.shape[0]
        if rows == 1 and value.ndim == 2:
            if value.dtype == np.float64:
                return value.reshape(-1).tolist()
            if value.dtype == np.bool_:
                return [bool(x) for x in value.reshape(-1)]
            return [value[:, j:j + 1] for j in range(value.shape[1])]
        flat = value.reshape(rows, -1, order="F")
        from matfuse.runtime.values import canonical
        return [canonical(flat[:, j:j + 1].copy()) for j in range(flat.shape[1])]
    if t is CellArray or t is StructArray or t is StringArray:
        if value.data.size == 0:
            return ()
        rows = value.shape[0]
        flat = value.data.reshape(rows, -1, order="F")
        cols = []
        for j in range(flat.shape[1]):
            col = flat[:, j:j + 1].copy()
            if t is StructArray:
                cols.append(StructArray(list(value.fields), col))
            else:
                cols.append(t(col))
        return cols
    if isinstance(value, DeviceValue):
        return _device_columns(value)
    if t is ObjectArray:
        return object_columns(value)
    columns = getattr(value, "for_columns", None)      # sparse matrices
    if columns is not None:
        return columns()
    return (value,)


def _device_columns(value: DeviceValue):
    """Columns of a gpuArray, each a gpuArray ``value(:, j)``, made one per
    iteration (the data stays on the device)."""
    shape = value.shape
    count = 1
    for d in shape[1:]:
        count *= d
    if shape[0] == 0 or count == 0:
        return ()
    from matfuse.runtime.indexing import COLON

    index = device_router().index
    return (keep_visibility(index(value, [COLON, float(j + 1)]), value)
            for j in range(count))


def _int_range(start: float, step: float, stop: float):
    """Lazy integer-valued ranges: ``1:2e6`` iterates without an array (ints:
    the loop converts each to a double)."""
    if step == 0 or (step > 0 and start > stop) or (step < 0 and start < stop):
        return None
    if (start.is_integer() and step.is_integer() and abs(start) < 2**53
            and abs(stop) < 2**53 and math.isfinite(stop)):
        last = math.floor(stop) if step > 0 else math.ceil(stop)
        return range(int(start), int(last) + (1 if step > 0 else -1), int(step))
    return None


def _text_row(v: Any) -> str | None:
    """A char row vector or string scalar as str; None for anything else."""
    if is_char(v):
        return to_str(v) if v.shape[0] <= 1 else None
    if isinstance(v, StringArray):
        return to_str(v) if v.data.size == 1 else None
    return None


def _literal_texts(case: ast.Expr) -> frozenset[str] | None:
    """The texts of a ``case`` that is a text literal or a cell literal of
    text literals (what a char subject is compared with), else None."""
    if type(case) is ast.String:
        return frozenset([case.value])
    if type(case) is ast.CellLit:
        items = [e for row in case.rows for e in row]
        if items and all(type(e) is ast.String for e in items):
            return frozenset(e.value for e in items)
    return None


def switch_matches(subject: Any, case: Any) -> bool:
    """MATLAB ``switch``: numbers compare with ==, text with strcmp, cells: any."""
    if type(case) is CellArray:
        return any(switch_matches(subject, c) for c in case.data.reshape(-1, order="F"))
    if type(subject) is float and type(case) is float:
        return subject == case
    subject_is_text = is_char(subject) or isinstance(subject, StringArray)
    case_is_text = is_char(case) or isinstance(case, StringArray)
    if subject_is_text or case_is_text:
        if not (subject_is_text and case_is_text):
            return False
        left, right = _text_row(subject), _text_row(case)
        return left is not None and left == right
    if isinstance(subject, (CellArray, StructArray)):
        raise MatlabError("MATLAB:switch:caseExpression",
                          "SWITCH expression must be a scalar or a character vector.")
    eq = _ops.binary("==", subject, case)
    if type(eq) is bool:
        return eq
    arr = np.asarray(eq)
    return arr.size == 1 and bool(arr.reshape(-1)[0])


class StmtCompiler:
    def __init__(self, exprs: Any, ctx: Any, block_compiler: Callable):
        self.exprs = exprs
        self.ctx = ctx
        self.targets = TargetCompiler(exprs, ctx)
        self.block = block_compiler   # (stmts, live_out) -> CompiledBlock

    def compile(self, node: ast.Stmt, live_out: set[str]) -> Stmt:
        method = getattr(self, "_s_" + type(node).__name__)
        return method(node, live_out)

    # ---------------------------------------------------------- expressions
    def _s_ExprStmt(self, node: ast.ExprStmt, live_out: set[str]) -> Stmt:
        expr, show, span = node.expr, node.display, node.span
        if type(expr) is ast.Ident:
            name = expr.name
            read = self.ctx.special_reader(name) or _calls.plain_reader(name)
            call = _calls.NameCall(name, self.ctx.scope, expr.span)

            def ident_stmt(fr: Any) -> Any:
                value = read(fr)
                if value is not _calls.MISSING:
                    if show:
                        fr.interp.show(name, value)
                    return None
                _set_ans(fr, call(fr, [], 0), show)
                return None
            return guard(ident_stmt, span)
        if is_display_of_variable(expr):
            return guard(display_named(expr, self.exprs.multi(expr), self.ctx), span)
        if type(expr) in (ast.Index, ast.Field, ast.DynField):
            multi = self.exprs.multi(expr)
            return guard(lambda fr: _set_ans(fr, multi(fr, 0), show), span)
        value = self.exprs.value(expr)
        return guard(lambda fr: _set_ans(fr, [value(fr)], show), span)

    def _s_Command(self, node: ast.Command, live_out: set[str]) -> Stmt:
        from matfuse.runtime.values import char_array

        call = _calls.NameCall(node.name, self.ctx.scope, node.span)
        words = list(node.args)
        show = node.display
        return guard(lambda fr: _set_ans(fr, call(fr, [char_array(w) for w in words], 0), show),
                     node.span)

    # ----------------------------------------------------------- assignment
    def _s_Assign(self, node: ast.Assign, live_out: set[str]) -> Stmt:
        span, show = node.span, node.display
        if not node.multi and len(node.targets) == 1:
            return self._single_assign(node.targets[0], node.value, span, show)
        if any(is_csl_target(t) for t in node.targets):
            return self._csl_assign(node)
        setters = [self.targets.compile(t) for t in node.targets]
        rhs = self.exprs.multi(node.value)
        count = len(setters)
        # Values needed up to the last real target (trailing ~ may go unfilled).
        needed = max((i + 1 for i, t in enumerate(node.targets)
                      if not isinstance(t, ast.Tilde)), default=0)

        def multi_assign(fr: Any) -> Any:
            values = rhs(fr, count)
            if len(values) < needed:
                raise MatlabError("MATLAB:needMoreRhsOutputs",
                                  "Insufficient number of outputs from right hand side of "
                                  "equal sign to satisfy assignment.")
            for (root, setter), value in zip(setters, values):
                if root is not None:
                    setter(fr, value)
            if show:
                for root, _ in setters:
                    if root is not None:
                        fr.interp.show_variable(fr, root)
            return None
        return guard(multi_assign, span)

    def _csl_assign(self, node: ast.Assign) -> Stmt:
        """``[c{:}] = deal(0)``, ``[s.v] = deal(9)``: targets standing for
        several outputs (``_csl_assign``)."""
        run = csl_multi_assign(node.targets, self.exprs, self.targets,
                               self.exprs.multi(node.value))
        show = node.display

        def csl_assign(fr: Any) -> Any:
            roots = run(fr)
            if show:
                for root in dict.fromkeys(r for r in roots if r is not None):
                    fr.interp.show_variable(fr, root)
            return None
        return guard(csl_assign, node.span)

    def _single_assign(self, target: ast.Expr, value_node: ast.Expr, span: Span,
                       show: bool) -> Stmt:
        if is_delete_rhs(target, value_node):
            from matfuse.runtime import indexing as _ix

            root, setter = self.targets.compile(target)
            value = lambda fr: _ix.DELETE  # noqa: E731
        else:
            root, setter = self.targets.compile(target)
            value = self.exprs.value(value_node)
        if type(target) is ast.Ident and self.ctx.special_writer(root) is None:
            name = root
            append = self._row_append(name, value_node, value)
            if append is not None:
                value = append

            def assign_var(fr: Any) -> Any:
                try:
                    fr[name] = value(fr)
                except MatlabError as err:
                    annotate_error(err, fr, span)
                    raise
                except Exception as exc:  # noqa: BLE001 - becomes a MATLAB error
                    raise internal_error(exc, fr, span) from None
                if show:
                    fr.interp.show(name, fr[name])
                return None
            return assign_var

        if show and root is not None:
            def assign_show(fr: Any) -> Any:
                setter(fr, value(fr))
                fr.interp.show_variable(fr, root)
                return None
            return guard(assign_show, span)

        def assign(fr: Any) -> Any:
            # ``guard``'s error handling inline: one frame less per statement.
            try:
                setter(fr, value(fr))
            except MatlabError as err:
                annotate_error(err, fr, span)
                raise
            except Exception as exc:  # noqa: BLE001 - becomes a MATLAB error
                raise internal_error(exc, fr, span) from None
            return None
        return assign

    def _row_append(self, name: str, value_node: ast.Expr,
                    general: Callable[[Any], Any]) -> Callable[[Any], Any] | None:
        """``x = [x, a, b]``: appended in place when ``x`` is an unshared row
        (``append_row``), so growing a string or vector is O(n) overall;
        None when the right side is not of that form."""
        if type(value_node) is not ast.Matrix:
            return None
        rows = [r for r in value_node.rows if r]
        if len(rows) != 1 or len(rows[0]) < 2:
            return None
        first, rest_nodes = rows[0][0], rows[0][1:]
        if type(first) is not ast.Ident or first.name != name \
                or any(self.exprs.is_multi(e) for e in rest_nodes):
            return None
        rest = [self.exprs.value(e) for e in rest_nodes]
        concat = _ops.concat

        def append_value(fr: Any) -> Any:
            cur = fr.get(name)
            if cur is None:
                return general(fr)
            parts = [f(fr) for f in rest]
            # cur: the workspace dict and this local.
            if exclusive(cur, 2):
                out = append_row(cur, parts)
                if out is not None:
                    return out
            return concat([[cur, *parts]])
        return append_value

    # -------------------------------------------------------- control flow
    def _s_If(self, node: ast.If, live_out: set[str]) -> Stmt:
        clauses = [(self.exprs.value(c), self.block(b, live_out).run) for c, b in node.clauses]
        else_run = self.block(node.else_body, live_out).run if node.else_body else None

        def if_stmt(fr: Any) -> Any:
            for cond, run in clauses:
                v = cond(fr)
                if v is True or (v is not False and truth(v)):
                    return run(fr)
            if else_run is not None:
                return else_run(fr)
            return None
        return guard(if_stmt, node.span)

    def _loop_live(self, node: ast.Stmt, live_out: set[str]) -> set[str]:
        """Live at the end of a loop body: what follows the loop, what the
        next iteration reads before writing it, and the loop header."""
        from matfuse.vm.names import expr_reads
        from matfuse.vm.statement_facts import upward_exposed

        header = node.cond if type(node) is ast.While else node.iterable
        return live_out | upward_exposed(node.body) | expr_reads(header, set())

    def _s_For(self, node: ast.For, live_out: set[str]) -> Stmt:
        if node.parfor:
            # parfor semantics (classification, pool or serial): matfuse.parallel
            return guard(compile_parfor(node, self.exprs.value, self.ctx.scope), node.span)
        _, write = self.targets.compile(node.var)
        body = self.block(node.body, self._loop_live(node, live_out)).run
        it = node.iterable
        if type(it) is ast.Range:
            start = self.exprs.value(it.start)
            step = self.exprs.value(it.step) if it.step is not None else (lambda fr: 1.0)
            stop = self.exprs.value(it.stop)
            whole = self.exprs.value(it)

            def values(fr: Any):
                a, d, b = start(fr), step(fr), stop(fr)
                if type(a) is float and type(d) is float and type(b) is float:
                    lazy = _int_range(a, d, b)
                    if lazy is not None:
                        return lazy, None
                return None, _ops.colon_range(a, d, b)
        else:
            whole = self.exprs.value(it)

            def values(fr: Any):
                return None, whole(fr)

        plain = (type(node.var) is ast.Ident
                 and self.ctx.special_writer(node.var.name) is None)
        name = node.var.name if plain else ""
        replayable = replayable_body(node.body, name) if plain else None
        if replayable is not None and any(self.ctx.special_writer(n) is not None
                                          for n in replayable.assigned):
            replayable = None

        def for_stmt(fr: Any) -> Any:
            seq, value = values(fr)
            if seq is None:
                seq = iterate_columns(value)
                if not seq:
                    write(fr, np.zeros((0, 0)))
                    return None
            elif replayable is not None and hints.ACTIVE and hints.loop_tracer is not None:
                tracer = hints.loop_tracer(replayable.assigned, len(seq))
                if tracer is not None and replayable.safe_in(fr):
                    return _traced_for(fr, name, seq, body, tracer)
            if type(seq) is range:
                seq = map(float, seq)
            for v in seq:
                # Inline test, not a bind callable: a plain name must not cost a call per iteration.
                if plain:
                    fr[name] = v
                else:
                    write(fr, v)
                signal = body(fr)
                if signal is not None:
                    if signal == BREAK:
                        break
                    if signal == RETURN:
                        return RETURN
            return None
        return guard(for_stmt, node.span)

    def _s_While(self, node: ast.While, live_out: set[str]) -> Stmt:
        cond = self.exprs.value(node.cond)
        body = self.block(node.body, self._loop_live(node, live_out)).run

        def while_stmt(fr: Any) -> Any:
            while True:
                v = cond(fr)
                if not (v is True or (v is not False and truth(v))):
                    break
                signal = body(fr)
                if signal is not None:
                    if signal == BREAK:
                        break
                    if signal == RETURN:
                        return RETURN
            return None
        return guard(while_stmt, node.span)

    def _s_Break(self, node: ast.Break, live_out: set[str]) -> Stmt:
        return lambda fr: BREAK

    def _s_Continue(self, node: ast.Continue, live_out: set[str]) -> Stmt:
        return lambda fr: CONTINUE

    def _s_Return(self, node: ast.Return, live_out: set[str]) -> Stmt:
        return lambda fr: RETURN

    def _s_Switch(self, node: ast.Switch, live_out: set[str]) -> Stmt:
        subject = self.exprs.value(node.subject)
        cases = [(self.exprs.value(v), self.block(b, live_out).run, _literal_texts(v))
                 for v, b in node.cases]
        otherwise = self.block(node.otherwise, live_out).run if node.otherwise else None

        def switch_stmt(fr: Any) -> Any:
            s = subject(fr)
            # A char row subject against literal text cases: one conversion,
            # then set lookups (``case {'a', 'b'}`` builds no cell).
            text = _text_row(s) if type(s) is np.ndarray else None
            for case, run, literals in cases:
                if literals is not None and text is not None:
                    if text in literals:
                        return run(fr)
                elif switch_matches(s, case(fr)):
                    return run(fr)
            if otherwise is not None:
                return otherwise(fr)
            return None
        return guard(switch_stmt, node.span)

    def _s_TryCatch(self, node: ast.TryCatch, live_out: set[str]) -> Stmt:
        body = self.block(node.body, live_out).run
        handler = self.block(node.catch_body, live_out).run
        ident = node.ident
        write = self.targets.variable_writer(ident) if ident else None

        def try_stmt(fr: Any) -> Any:
            try:
                return body(fr)
            except MatlabError as err:
                fr.interp.last_error = err
                if write is not None:
                    write(fr, err)
                return handler(fr)
        return try_stmt

    def _s_Global(self, node: ast.Global, live_out: set[str]) -> Stmt:
        names = list(node.names)

        def global_stmt(fr: Any) -> Any:
            store = fr.interp.globals
            for n in names:
                local = fr.pop(n, None)
                if n not in store:
                    store[n] = local if local is not None else np.zeros((0, 0))
                fr.global_names.add(n)
            return None
        return guard(global_stmt, node.span)

    def _s_Persistent(self, node: ast.Persistent, live_out: set[str]) -> Stmt:
        store = self.ctx.persistents
        names = list(node.names)
        if store is None:
            def not_in_function(fr: Any) -> Any:
                raise MatlabError("MATLAB:persistentNotInFunction",
                                  "A PERSISTENT declaration is only allowed in a function.")
            return guard(not_in_function, node.span)

        def persistent_stmt(fr: Any) -> Any:
            for n in names:
                if n not in store:
                    store[n] = np.zeros((0, 0))
            return None
        return persistent_stmt


def _set_ans(fr: Any, values: list, show: bool) -> None:
    """An expression statement's results become ``ans`` (and print)."""
    for v in values:
        fr["ans"] = v
        if show:
            fr.interp.show("ans", v)


def _traced_for(fr: Any, name: str, seq: range, body: Stmt, tracer: Any) -> Any:
    """A for loop over an integer range whose body the fusion engine may
    replay (``vm/_replay.py``): the first iterations run under the tracer;
    once two repeat, all but the last remaining iteration become one fused
    loop kernel, and the last runs normally."""
    n = len(seq)
    k = 0
    while k < n:
        fr[name] = float(seq[k])
        watching = tracer is not None
        if watching:
            tracer.before(fr)
        signal = body(fr)
        k += 1
        if signal is not None:
            if signal == BREAK:
                break
            if signal == RETURN:
                return RETURN
        if not watching:
            continue
        remaining = n - k - 1
        if tracer.after(fr) and remaining >= 1 and tracer.replay(fr, remaining):
            k += remaining
            tracer = None
        elif tracer.exhausted:
            tracer = None
    return None
