"""The interpreter: call stack, function calls, script runs, eval.

The ``Interpreter`` is also the ``CallContext`` handed to builtins declared
with ``needs_ctx``: ``call``, ``write``, ``write_err``, ``display_format``,
``get_var``/``set_var``/``variable_names`` (on the caller's workspace) and
``interp`` (itself).
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any, TextIO

import numpy as np

from matfuse.errors import MatlabError, MatlabInterrupt, from_python_exception
from matfuse.lang import ast
from matfuse.runtime.dispatcher import call_builtin
from matfuse.runtime.registry import Builtin
from matfuse.runtime.classdef_arrays import ObjectArray
from matfuse.runtime.classdef_objects import ClassInfo, ClassObject, method_for
from matfuse.runtime.values import CellArray, FunctionHandle
from matfuse.vm import _calls, call_plan
from matfuse.vm.compile_cache import CompileCache
from matfuse.vm.program import compile_program
from matfuse.vm.functions import CompiledFunction, FileScope, FunctionTable, ScriptTarget
from matfuse.vm.workspace import Frame

RECURSION_LIMIT = call_plan.RECURSION_LIMIT
_new_dict = dict.__new__
_PY_RECURSION = 30000


def decode_source(data: bytes) -> str:
    """Text of a ``.m`` file: UTF-8 (a BOM is dropped), else Latin-1, the
    single-byte encoding older MATLAB files were saved in (every byte decodes)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def parse_source(source: str, file: str | None = None,
                 variables: frozenset[str] = frozenset()) -> ast.Program:
    from matfuse.lang.parser import parse

    return parse(source, file, variables=variables)


class Interpreter:
    """One MATLAB session's state: workspaces, globals, path, settings."""

    def __init__(self, out: TextIO | None = None, err: TextIO | None = None):
        if sys.getrecursionlimit() < _PY_RECURSION:
            sys.setrecursionlimit(_PY_RECURSION)
        # NumPy discarding an imaginary part is an error, not a printed Python
        # warning: the error boundary reports it as MATLAB's "Expected input to be real."
        warnings.filterwarnings("error", category=np.exceptions.ComplexWarning)
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        self.functions = FunctionTable(self._load_file)
        self.generation = _calls.next_generation()
        self.functions.begin_generation()
        self.globals: dict[str, Any] = {}
        self.base = Frame(self, "base", None, FileScope(None))
        self.frame = self.base
        self.depth = 0
        self.last_error: MatlabError | None = None
        self.repl_functions: dict[str, CompiledFunction] = {}
        # Bumped when REPL text defines functions: cached texts resolve anew.
        self.repl_version = 0
        self._generation_repl_version = 0
        self.compile_cache = CompileCache()
        self.handle_targets = _calls.HandleTargets()
        self._display_format = "short"
        self.display_spacing = "loose"           # format compact / loose
        self.warning_states: dict[str, bool] = {}
        self.last_warning: tuple[str, str] = ("", "")
        self.options: Any = None

    # ------------------------------------------------------------ ctx API
    @property
    def interp(self) -> "Interpreter":
        return self

    @property
    def display_format(self) -> str:
        return self._display_format

    @display_format.setter
    def display_format(self, value: str) -> None:
        self._display_format = value

    def write(self, text: str) -> None:
        self.out.write(text)

    def write_err(self, text: str) -> None:
        self.out.flush()
        self.err.write(text)

    def runtime_warning(self, identifier: str, message: str) -> None:
        """A warning raised inside runtime code (``A\\b`` of a singular
        matrix...): shown and recorded for ``lastwarn`` as ``warning(id,
        msg)`` is, unless that identifier (or all) is turned off."""
        states = self.warning_states
        if states.get(identifier, states.get("all", True)) is False:
            return
        self.last_warning = (message, identifier)
        self.write_err(f"Warning: {message}\n")

    def get_var(self, name: str) -> Any:
        """Variable of the caller's workspace (None when undefined)."""
        fr = self.frame
        if name in fr.global_names:
            return self.globals.get(name)
        return fr.get(name)

    def set_var(self, name: str, value: Any) -> None:
        fr = self.frame
        if name in fr.global_names:
            self.globals[name] = value
        else:
            fr[name] = value

    def variable_names(self) -> list[str]:
        fr = self.frame
        return sorted(set(fr) | fr.global_names)

    def call(self, fn: Any, args: list[Any], nargout: int) -> list[Any]:
        """Call a function handle, or a function by name."""
        if isinstance(fn, FunctionHandle):
            return _calls.call_handle(self, fn, list(args), nargout)
        if isinstance(fn, str):
            method = method_for(fn, args)
            if method is not None:
                return self.call_function(method, list(args), nargout)
            target = self.resolve(fn, self.frame.scope)
            if target is None:
                raise _calls.unrecognized(fn)
            return self.invoke(target, list(args), nargout, fn)
        raise MatlabError("MATLAB:invalidFunctionHandle",
                          "Expected a function handle or a function name.")

    def function_caller(self, fn: Any) -> Any:
        """``caller(args, nargout) -> outputs``: ``call(fn, args, nargout)``
        for calling ``fn`` (a function handle or a function name) once per
        element (cellfun, arrayfun): its target is looked up once."""
        if isinstance(fn, str):
            fn = FunctionHandle(name=fn, scope=self.frame.scope)
        elif not isinstance(fn, FunctionHandle):
            raise MatlabError("MATLAB:invalidFunctionHandle",
                              "Expected a function handle or a function name.")
        return _calls.handle_caller(self, fn)

    # ------------------------------------------------------ function lookup
    def _load_file(self, path: str) -> FileScope:
        with open(path, "rb") as fh:
            data = fh.read()
        scope = compile_program(parse_source(decode_source(data), path), path)
        if isinstance(scope.primary, ClassInfo):
            from matfuse.vm.classes import link_class

            link_class(scope.primary, self, scope)
        return scope

    def resolve(self, name: str, scope: FileScope | None) -> Any:
        if scope is not None and scope.file is None and name in self.repl_functions:
            local = scope.functions.get(name)
            return local if local is not None else self.repl_functions[name]
        return self.functions.resolve(name, scope)

    def invalidate(self) -> None:
        """Path or files changed: call sites resolve again."""
        self.generation = _calls.next_generation()
        self.functions.begin_generation()
        self._generation_repl_version = self.repl_version

    def begin_command(self) -> None:
        """A new top-level command: call sites resolve again unless nothing
        their resolution depends on changed (``FunctionTable.unchanged``,
        REPL function definitions)."""
        if self.repl_version != self._generation_repl_version or not self.functions.unchanged():
            self.invalidate()

    # ---------------------------------------------------------------- calls
    def invoke(self, target: Any, args: list, nargout: int, name: str | None = None) -> list:
        t = type(target)
        if t is Builtin:
            return call_builtin(target, args, nargout, self)
        if t is CompiledFunction:
            return self.call_function(target, args, nargout)
        if t is ScriptTarget:
            if args:
                raise MatlabError("MATLAB:scriptNotAFunction",
                                  f"Attempt to execute SCRIPT {name} as a function:\n"
                                  f"{target.scope.file}")
            self.run_script(target.scope, self.frame)
            return []
        if t is FunctionHandle:
            return _calls.call_handle(self, target, args, nargout)
        if t is ClassInfo:
            from matfuse.vm.classes import construct

            return construct(self, target, args, nargout)
        raise _calls.unrecognized(name or "?")

    def _enter(self, fr: Frame) -> Frame:
        if self.depth >= RECURSION_LIMIT:
            raise call_plan.recursion_limit_error()
        prev = self.frame
        fr.caller = prev
        self.frame = fr
        self.depth += 1
        return prev

    def parent_frame_for(self, cf: CompiledFunction, start: Frame | None = None) -> Frame:
        """The live frame of a nested function's parent (from the caller's chain)."""
        fr = start if start is not None else self.frame
        while fr is not None:
            if fr.function is cf.parent:
                return fr
            fr = fr.parent
        raise MatlabError("MATLAB:nestedFunctionNotInScope",
                          f"Nested function '{cf.name}' can only be called from within "
                          f"'{cf.parent.name if cf.parent else ''}' or through a handle.")

    def call_function(self, cf: CompiledFunction, args: list, nargout: int,
                      parent: Frame | None = None, preset: dict | None = None,
                      input_names: list[str] | None = None) -> list:
        """Run ``cf``; ``preset``: variables set before the parameters (a
        class constructor's output starts as the new object);
        ``input_names``: the arguments' variable names (``inputname``).
        A function without a parent workspace is entered with its call
        plan (``call_plan.function_plan``, made on its first call): the
        workspace is built here as ``call_plan.new_frame`` builds one."""
        if type(cf) is Builtin:      # a built-in value class's method (datetime...)
            return call_builtin(cf, args, nargout, self)
        if cf.parent is None and preset is None and input_names is None:
            plan = cf.call_plan
            if plan is None:
                plan = cf.call_plan = call_plan.function_plan(cf)
            (nparams, varargin, max_out, params, first, single_output, no_outputs, run,
             name, file, scope) = plan
            nargs = len(args)
            if nargs > nparams and not varargin:
                raise call_plan.too_many_inputs(name)
            if nargout > max_out >= 0:
                raise call_plan.too_many_outputs(name)
            fr = _new_dict(Frame)
            fr.interp = self
            fr.name = name
            fr.file = file
            fr.scope = scope
            fr.nargin = nargs
            fr.nargout = nargout
            fr.global_names = set()
            fr.function = cf
            fr.parent = None
            fr.input_names = None
            if nargs == 1 and first is not None:
                fr[first] = args[0]
            else:
                for p, a in zip(params, args):
                    fr[p] = a
                if varargin:
                    fr["varargin"] = CellArray.from_list(list(args[nparams:]))
            if self.depth >= RECURSION_LIMIT:
                raise call_plan.recursion_limit_error()
            prev = self.frame
            fr.caller = prev
            self.frame = fr
            self.depth += 1
            try:
                run(fr)
            finally:
                self.frame = prev
                self.depth -= 1
            if single_output is not None:
                if single_output in fr:
                    return [fr[single_output]]
                if nargout >= 1:
                    raise call_plan.unassigned_output(cf, single_output)
                return []
            if no_outputs:
                return []
            return call_plan.collect_outputs(cf, fr, nargout)
        nparams = len(cf.params)
        if len(args) > nparams and not cf.varargin:
            raise call_plan.too_many_inputs(cf.name)
        if nargout > len(cf.outputs) and not cf.varargout:
            raise call_plan.too_many_outputs(cf.name)
        fr = call_plan.new_frame(self, cf.name, cf.file, cf.scope, len(args), nargout, cf)
        if cf.parent is not None:
            fr.parent = parent if parent is not None else self.parent_frame_for(cf)
        if preset:
            fr.update(preset)
        fr.input_names = input_names
        for p, a in zip(cf.params, args):
            fr[p] = a
        if cf.varargin:
            fr["varargin"] = CellArray.from_list(list(args[nparams:]))
        prev = self._enter(fr)
        try:
            cf.body.run(fr)
        finally:
            self.frame = prev
            self.depth -= 1
        return call_plan.collect_outputs(cf, fr, nargout)

    # -------------------------------------------------------------- scripts
    def run_script(self, scope: FileScope, fr: Frame) -> None:
        """Run a script body in workspace ``fr`` (scripts share their caller's)."""
        saved = (fr.name, fr.file, fr.scope)
        if scope.file:
            fr.name = os.path.splitext(os.path.basename(scope.file))[0]
            fr.file = scope.file
        fr.scope = scope
        try:
            if scope.script is not None:
                scope.script.run(fr)
        finally:
            fr.name, fr.file, fr.scope = saved

    def run_file(self, path: str) -> None:
        """``matfuse FILE.m`` / ``run FILE``: a script runs in the base workspace;
        a function file's primary function is called with no arguments."""
        try:
            scope = self.functions.load_file(path)
        except (FileNotFoundError, IsADirectoryError):
            # (no extra stat per run: the load's own mtime check finds it)
            raise MatlabError("MATLAB:run:FileNotFound", f"{path} not found.") from None
        if scope.primary is not None:
            self.invoke(scope.primary, [], 0)
            return
        self.run_script(scope, self.frame)

    def run_file_command(self, path: str) -> None:
        """``run_file`` as a top-level command (the command's freshness
        check first)."""
        self.begin_command()
        self.run_file(path)

    def execute(self, source: str, fr: Frame | None = None) -> None:
        """Run MATLAB text (REPL, ``-e``, Session.eval) in workspace ``fr``."""
        fr = fr if fr is not None else self.base
        key, relevant, compiled = self.compile_cache.lookup(
            "execute", source, None, self.repl_version, fr.global_names, fr)
        if compiled is None:
            program = parse_source(source, None, relevant)
            if program.classdef is not None:
                raise MatlabError("MATLAB:classdef:notInFile",
                                  "A class definition must be in its own file, named after "
                                  "the class (NAME.m).")
            scope = FileScope(None, functions=dict(self.repl_functions))
            compiled = compile_program(program, None, scope, extra_globals=fr.global_names)
            if program.functions:
                for fn in program.functions:
                    self.repl_functions[fn.name] = compiled.functions[fn.name]
                self.repl_version += 1
            else:
                self.compile_cache.store(key, relevant, compiled)
        if compiled.script is not None:
            saved, fr.scope = fr.scope, compiled
            try:
                compiled.script.run(fr)
            finally:
                fr.scope = saved

    def eval_string(self, source: str, nargout: int) -> list:
        """``eval``: run text in the caller's workspace and scope."""
        fr = self.frame
        caller_scope = fr.scope
        kind = "eval-expr" if nargout > 0 else "eval"
        key, relevant, compiled = self.compile_cache.lookup(
            kind, source, None, caller_scope, fr.global_names, fr)
        if compiled is None:
            compiled, cacheable = self._compile_eval(source, relevant, caller_scope, nargout)
            if cacheable:
                self.compile_cache.store(key, relevant, compiled)
        if nargout > 0:
            return compiled(fr, nargout)
        if compiled.script is not None:
            compiled.script.run(fr)
        return []

    def _compile_eval(self, source: str, relevant: frozenset[str], caller_scope: Any,
                      nargout: int) -> tuple[Any, bool]:
        """(compiled, cacheable): an expression closure ``(fr, nargout) -> values``
        when ``nargout > 0``, else a FileScope."""
        fr = self.frame
        program = parse_source(source, None, relevant)
        scope = FileScope(caller_scope.file if caller_scope else None,
                          functions=caller_scope.functions if caller_scope else {})
        if nargout > 0:
            body = program.body
            if len(body) != 1 or not isinstance(body[0], ast.ExprStmt):
                raise MatlabError("MATLAB:eval:invalidExpression",
                                  "Eval with output arguments requires an expression.")
            from matfuse.vm.compiler import BodyCompiler
            from matfuse.vm.function_context import FunctionContext

            ctx = FunctionContext(scope, set(fr.global_names), None)
            return BodyCompiler(ctx).exprs.multi(body[0].expr), True
        compiled = compile_program(program, None, scope, extra_globals=fr.global_names)
        return compiled, not program.functions

    # -------------------------------------------------------------- display
    def show(self, name: str, value: Any) -> None:
        from matfuse.runtime import display

        if _has_class_display(value):
            from matfuse.vm.class_display import show_object

            show_object(self, name, value)
            return
        self.write(display.display_value(name, value, self._display_format,
                                         self.display_spacing == "compact"))

    def show_variable(self, fr: Frame, name: str) -> None:
        if name in fr.global_names:
            self.show(name, self.globals[name])
        elif name in fr:
            self.show(name, fr[name])


def _has_class_display(value: Any) -> bool:
    return type(value) is ClassObject or type(value) is ObjectArray


def interrupt_guard(fn: Any, *args: Any) -> Any:
    """Run ``fn`` at the API boundary: Ctrl-C becomes MatlabInterrupt (the
    session survives) and a stray Python exception becomes a MATLAB error
    (``from_python_exception``) instead of a traceback."""
    try:
        return fn(*args)
    except KeyboardInterrupt:
        raise MatlabInterrupt() from None
    except MatlabError:
        raise
    except Exception as exc:  # noqa: BLE001 - reported as a MATLAB error
        raise from_python_exception(exc) from exc
