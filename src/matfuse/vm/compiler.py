"""The compiler: AST -> closures, once per function body.

``compile_function`` compiles one function (``program.compile_program``
compiles a whole file). Each statement keeps a
``StmtInfo`` with the names it reads and writes and its *last uses*: the
variables whose final read in straight-line order happens in that statement
(inside loops every variable read by the loop counts as live throughout).
The fusion engine reads these to choose materialise vs recompute.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Callable

from matfuse.lang import ast
from matfuse.runtime import hints
from matfuse.runtime.values import DeviceValue
from matfuse.vm._expr import ExprCompiler
from matfuse.vm._stmt import StmtCompiler
from matfuse.vm.function_context import FunctionContext
from matfuse.vm.functions import CompiledFunction, FileScope
from matfuse.vm.names import declared_names
from matfuse.vm.statement_facts import stmt_facts


class StmtInfo:
    """A compiled statement with its name facts (liveness for fusion)."""

    __slots__ = ("node", "fn", "reads", "writes", "last_use", "children")

    def __init__(self, node: ast.Stmt, fn: Callable[[Any], Any], reads: frozenset[str],
                 writes: AbstractSet[str], last_use: frozenset[str],
                 children: list[CompiledBlock] | None = None):
        self.node = node
        self.fn = fn
        self.reads = reads
        self.writes = writes            # read-only; a NestedWrites view for compound statements
        self.last_use = last_use
        # Compiled bodies nested in this statement (if/else branches, loop body,
        # switch cases, try/catch), in source order.
        self.children = [] if children is None else children


def _no_statements(fr: Any) -> None:
    return None


class CompiledBlock:
    """A compiled statement list: its statements' facts and the function
    that runs them."""

    __slots__ = ("infos", "run")

    def __init__(self, infos: list[StmtInfo] | None = None,
                 run: Callable[[Any], Any] = _no_statements):
        self.infos = [] if infos is None else infos
        self.run = run


def _runner(pairs: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]]
            ) -> Callable[[Any], Any]:
    """Executes statements in order; stops at the first control signal.

    ``pairs``: each statement as (plain, hinted): the hinted form (liveness
    hints, ``_with_liveness_hints``) runs only while ``hints.ACTIVE``; the
    check is made here, per statement, so host-only code calls the plain
    statement with no wrapper in between."""
    if not pairs:
        return lambda fr: None
    if len(pairs) == 1:
        return pairs[0][1]
    if len(pairs) == 2:
        (p0, h0), (p1, h1) = pairs

        def run2(fr: Any) -> Any:
            signal = p0(fr) if not hints.ACTIVE else h0(fr)
            if signal is not None:
                return signal
            return p1(fr) if not hints.ACTIVE else h1(fr)
        return run2
    seq = tuple(pairs)

    def run(fr: Any) -> Any:
        for plain, hinted in seq:
            signal = plain(fr) if not hints.ACTIVE else hinted(fr)
            if signal is not None:
                return signal
        return None
    return run


def _with_liveness_hints(fn: Callable[[Any], Any], live_writes: frozenset[str],
                         dead_reads: frozenset[str]) -> Callable[[Any], Any]:
    """After the statement runs, tell device values whether their variable is
    read again (``DeviceValue.bind_hint``): the fusion engine writes out
    lazy values that are, and keeps the others in registers. The hints cost
    one global check unless lazy device values exist (``hints.ACTIVE``)."""
    if not live_writes and not dead_reads:
        return fn
    live = tuple(live_writes)
    dead = tuple(dead_reads)
    if len(live) == 1 and not dead:
        # The common ``name = expr`` whose name is read later: no lists.
        name = live[0]

        def hinted_one(fr: Any) -> Any:
            if not hints.ACTIVE:
                return fn(fr)
            old = fr.get(name)
            if not isinstance(old, DeviceValue):
                old = None  # holding a host value would defeat in-place updates
            signal = fn(fr)
            value = fr.get(name)
            if old is not value and isinstance(old, DeviceValue):
                old.bind_hint(False)
            if isinstance(value, DeviceValue):
                value.bind_hint(True)
            return signal
        return hinted_one

    def hinted(fr: Any) -> Any:
        if not hints.ACTIVE:
            return fn(fr)
        get = fr.get
        # Values about to be overwritten lose their variable.
        # Only device values are kept: holding a host value would make it
        # look shared and defeat in-place updates.
        before = [v if isinstance(v, DeviceValue) else None
                  for v in (get(name) for name in live)] if live else None
        signal = fn(fr)
        if before is not None:
            for name, old in zip(live, before):
                value = get(name)
                if old is not value and isinstance(old, DeviceValue):
                    old.bind_hint(False)
                if isinstance(value, DeviceValue):
                    value.bind_hint(True)
        for name in dead:
            value = get(name)
            if isinstance(value, DeviceValue):
                value.bind_hint(False)
        return signal
    return hinted


class BodyCompiler:
    """Compiles the statements of one function or script body."""

    def __init__(self, ctx: FunctionContext):
        self.ctx = ctx
        self.exprs = ExprCompiler(ctx)
        self.stmts = StmtCompiler(self.exprs, ctx, self.block)
        self._children: list[list[CompiledBlock]] = []

    def block(self, stmts: list[ast.Stmt] | None, live_out: set[str]) -> CompiledBlock:
        stmts = list(stmts or [])
        facts = [stmt_facts(s) for s in stmts]
        # Backward pass: live-after set of each statement.
        live_after: list[set[str]] = [set()] * len(stmts)
        live = set(live_out)
        for i in range(len(stmts) - 1, -1, -1):
            live_after[i] = set(live)
            live |= facts[i][0]
        infos = []
        pairs = []
        for s, (reads, writes), after in zip(stmts, facts, live_after):
            self._children.append([])
            try:
                fn = self.stmts.compile(s, after)
            finally:
                children = self._children.pop()
            plain = fn
            fn = _with_liveness_hints(fn, frozenset(writes & after), frozenset(reads - after))
            pairs.append((plain, fn))
            infos.append(StmtInfo(s, fn, frozenset(reads), _frozen(writes),
                                  frozenset(reads - after), children))
        block = CompiledBlock(infos, _runner(pairs))
        if self._children:
            self._children[-1].append(block)
        return block


def _frozen(names: AbstractSet[str]) -> AbstractSet[str]:
    """A plain set frozen; read-only views (``NestedWrites``) kept as they are."""
    return frozenset(names) if isinstance(names, set) else names


def _function_names(node: ast.Function) -> set[str]:
    """Every name a function's own body uses (nested functions excluded)."""
    names: set[str] = set(node.params) | set(node.outputs)
    for stmt in node.body:
        reads, writes = stmt_facts(stmt)
        names.update(reads)
        names.update(writes)
    return names


def compile_function(node: ast.Function, scope: FileScope, file: str | None,
                     parent: tuple[ast.Function, CompiledFunction] | None = None
                     ) -> CompiledFunction:
    params = list(node.params)
    outputs = list(node.outputs)
    varargin = bool(params) and params[-1] == "varargin"
    varargout = bool(outputs) and outputs[-1] == "varargout"
    cf = CompiledFunction(
        name=node.name,
        params=params[:-1] if varargin else params,
        outputs=outputs[:-1] if varargout else outputs,
        varargin=varargin, varargout=varargout, body=None, file=file, scope=scope,
    )
    ctx = FunctionContext(scope, declared_names(node.body, ast.Global), cf.persistents)
    ctx.persistent_names = declared_names(node.body, ast.Persistent)
    if parent is not None:
        parent_node, cf.parent = parent
        own = set(node.params) | set(node.outputs)
        ctx.shared_names = (_function_names(node) & _function_names(parent_node)) - own
    # Outputs are read after the body ends: live at its exit.
    cf.body = BodyCompiler(ctx).block(node.body, set(outputs))
    if node.arguments:
        from matfuse.vm._argument_check import compile_argument_check

        check = compile_argument_check(node, cf, scope)
        if check is not None:
            run = cf.body.run
            cf.body.run = lambda fr: check(fr) or run(fr)
    return cf
