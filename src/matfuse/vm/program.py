"""Compiling a whole file: ``compile_program`` turns a parsed file or string
into a ``FileScope``: its functions (and their nested functions) compiled,
plus the script body for scripts, or the class for a classdef file."""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from typing import Iterator

from matfuse.lang import ast
from matfuse.vm.compiler import BodyCompiler, compile_function
from matfuse.vm.function_context import FunctionContext
from matfuse.vm.functions import CompiledFunction, FileScope
from matfuse.vm.names import declared_names
from matfuse.vm.statement_facts import facts_memo


def _compile_all(functions: list[ast.Function], scope: FileScope, file: str | None,
                 parent: tuple[ast.Function, CompiledFunction] | None = None) -> None:
    """Compile functions and, recursively, their nested functions (which share
    the variables they have in common with their parent)."""
    for fn in functions:
        cf = compile_function(fn, scope, file, parent)
        scope.functions[fn.name] = cf
        _compile_all(fn.nested, scope, file, (fn, cf))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while compiling: compiling
    allocates many long-lived closures, and the collections they trigger
    rescan everything allocated so far (quadratic in program size for deep
    programs). The collector's previous state is restored."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def compile_program(program: ast.Program, file: str | None = None,
                    scope: FileScope | None = None,
                    extra_globals: set[str] | frozenset[str] = frozenset()) -> FileScope:
    """Compile a parsed program into a FileScope (script body in ``.script``).

    Nested functions share the variables they have in common with their
    parent's workspace (one level: with the direct parent).
    """
    if scope is None:
        scope = FileScope(file)
    with facts_memo(), _collector_paused():
        _compile_all(program.functions, scope, file)
        if program.classdef is not None:
            from matfuse.vm.class_compiler import compile_class

            scope.primary = compile_class(program, scope, file)
            return scope
        if program.is_script:
            globals_ = declared_names(program.body, ast.Global) | set(extra_globals)
            ctx = FunctionContext(scope, globals_, None)
            scope.script = BodyCompiler(ctx).block(program.body, set())
    if not program.is_script and program.functions:
        scope.primary = scope.functions[program.functions[0].name]
        if file is not None:
            stem = os.path.splitext(os.path.basename(file))[0]
            scope.functions.setdefault(stem, scope.primary)
    return scope
