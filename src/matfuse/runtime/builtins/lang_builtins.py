"""Builtins that need the interpreter: nargin/nargout, narginchk, exist,
feval, eval, run, clear, who, isvarname, format, addpath/rmpath/path,
func2str/str2func, builtin. Registered with ``needs_ctx=True``; ``ctx`` is
the VM's Interpreter (see ``matfuse.vm.interpreter``)."""

from __future__ import annotations

import fnmatch
import os
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import int_value, is_text, text_arg
from matfuse.runtime.registry import builtin, lookup
from matfuse.runtime.values import CellArray, FunctionHandle, char_array, to_str

MATLAB_KEYWORDS = frozenset({
    "break", "case", "catch", "classdef", "continue", "else", "elseif", "end", "for",
    "function", "global", "if", "otherwise", "parfor", "persistent", "return", "spmd",
    "switch", "try", "while",
})
NAMELENGTHMAX = 63


def _interp(ctx: Any) -> Any:
    """The interpreter behind ``ctx`` (a MATLAB error for stand-in contexts)."""
    interp = getattr(ctx, "interp", None)
    if interp is None:
        raise MatlabError("matfuse:noInterpreter",
                          "This function needs a running MATLAB session.")
    return interp


def _outputs(values: list, nargout: int) -> Any:
    """A builtin's return for a list of results (calling convention)."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return tuple(values)


def _declared_counts(ctx: Any, fn: Any) -> tuple[int, int]:
    """(nargin, nargout) a function declares; negative with varargin/varargout."""
    from matfuse.vm.functions import CompiledFunction

    if isinstance(fn, FunctionHandle) and fn.text is not None:
        params = fn.text[2:fn.text.index(")")].split(",") if fn.text.startswith("@(") else []
        params = [p for p in params if p]
        n = len(params)
        return (-n if params and params[-1] == "varargin" else n), -1
    name = fn.name if isinstance(fn, FunctionHandle) else text_arg(fn, "nargin")
    interp = _interp(ctx)
    target = interp.resolve(name, interp.frame.scope)
    if isinstance(target, CompiledFunction):
        return target.nargin_declared, target.nargout_declared
    if target is None:
        raise MatlabError("MATLAB:nargin:FunctionDoesNotExist",
                          f'Function "{name}" does not exist.')
    max_args = target.max_args
    max_out = target.max_out
    return (-1 if max_args is None else max_args), (-1 if max_out is None else max_out)


def _function_frame(ctx: Any, fn: str) -> Any:
    frame = _interp(ctx).frame
    if frame.function is None and frame.name == "base":
        raise MatlabError(f"MATLAB:{fn}:notInFunction",
                          f"You can only call {fn} from within a MATLAB function.")
    return frame


@builtin("nargin", category="lang", nargin=(0, 1), nargout=(0, 1), needs_ctx=True)
def nargin(ctx: Any, fn: Any = None) -> float:
    """Number of arguments the current function was called with."""
    if fn is not None:
        return float(_declared_counts(ctx, fn)[0])
    return float(_function_frame(ctx, "nargin").nargin)


@builtin("nargout", category="lang", nargin=(0, 1), nargout=(0, 1), needs_ctx=True)
def nargout(ctx: Any, fn: Any = None) -> float:
    """Number of outputs the current function was asked for."""
    if fn is not None:
        return float(_declared_counts(ctx, fn)[1])
    return float(_function_frame(ctx, "nargout").nargout)


def _check_count(ctx: Any, count: int, low: Any, high: Any, what: str) -> None:
    lo = int_value(low, what + "chk")
    hi = float(high) if type(high) is float else float(np.asarray(high).reshape(-1)[0])
    kind = "Input" if what == "nargin" else "Output"
    if count < lo:
        err = MatlabError(f"MATLAB:{what}chk:notEnough{kind}s",
                          f"Not enough {kind.lower()} arguments.")
    elif count > hi:
        err = MatlabError(f"MATLAB:{what}chk:tooMany{kind}s",
                          f"Too many {kind.lower()} arguments.")
    else:
        return
    err.function_name = _interp(ctx).frame.name
    raise err


@builtin("narginchk", category="lang", nargin=(2, 2), nargout=(0, 0), needs_ctx=True)
def narginchk(ctx: Any, low: Any, high: Any) -> None:
    """Error unless the caller's nargin is within [low, high]."""
    _check_count(ctx, _function_frame(ctx, "narginchk").nargin, low, high, "nargin")


@builtin("nargoutchk", category="lang", nargin=(2, 2), nargout=(0, 0), needs_ctx=True)
def nargoutchk(ctx: Any, low: Any, high: Any) -> None:
    _check_count(ctx, _function_frame(ctx, "nargoutchk").nargout, low, high, "nargout")


@builtin("exist", category="lang", nargin=(1, 2), nargout=(0, 1), needs_ctx=True)
def exist(ctx: Any, name: Any, kind: Any = None) -> float:
    """1 variable, 2 file, 5 builtin, 7 folder, 0 nothing."""
    text = text_arg(name, "exist")
    what = text_arg(kind, "exist").lower() if kind is not None else "any"
    interp = _interp(ctx)
    if what in ("any", "var") and text in interp.variable_names():
        return 1.0
    if what == "var":
        return 0.0
    if what in ("any", "file"):
        scope = interp.frame.scope
        if scope is not None and text in scope.functions:
            return 2.0
        if interp.functions.find_file(text, scope.folder if scope else None):
            return 2.0
        if os.path.isfile(text):
            return 2.0
    if what in ("any", "builtin") and lookup(text) is not None:
        return 5.0
    if what in ("any", "dir", "file") and text and os.path.isdir(text):
        return 7.0
    return 0.0


@builtin("which", category="environment", nargin=(1, 1), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def which(ctx: Any, name: Any, nargout: int = 0) -> Any:
    """Where ``name`` resolves: variable, local function, ``.m`` file or builtin."""
    text = text_arg(name, "which")
    interp = _interp(ctx)
    scope = interp.frame.scope
    path = interp.functions.find_file(text, scope.folder if scope else None)
    if text in interp.variable_names():
        value, message = "variable", f"{text} is a variable."
    elif scope is not None and text in scope.functions:
        file = scope.file or ""
        value, message = file, f"{text} is a local function in {file or 'the current script'}."
    elif path:
        value = message = os.path.abspath(path)
    elif lookup(text) is not None:
        value = message = f"built-in ({text})"
    else:
        value, message = "", f"'{text}' not found."
    if nargout > 0:
        return char_array(value)
    ctx.write(message + "\n")
    return None


@builtin("isvarname", category="lang", nargin=(1, 1), nargout=(0, 1))
def isvarname(name: Any) -> bool:
    """True for a valid MATLAB variable name."""
    if not is_text(name):
        return False
    text = to_str(name)
    return (text.isidentifier() and text.isascii() and text[0].isalpha()
            and len(text) <= NAMELENGTHMAX and text not in MATLAB_KEYWORDS)


@builtin("feval", category="lang", nargin=(1, None), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def feval(ctx: Any, fn: Any, *args: Any, nargout: int = 0) -> Any:
    """Call a function given as a handle or a name."""
    target = fn if isinstance(fn, FunctionHandle) else text_arg(fn, "feval", "function name")
    return _outputs(ctx.call(target, list(args), nargout), nargout)


@builtin("eval", category="lang", nargin=(1, 2), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def eval_(ctx: Any, code: Any, catch_code: Any = None, nargout: int = 0) -> Any:
    """Run MATLAB text in the caller's workspace (``eval(try, catch)``)."""
    interp = _interp(ctx)
    source = text_arg(code, "eval", "expression")
    if catch_code is None:
        return _outputs(interp.eval_string(source, nargout), nargout)
    fallback = text_arg(catch_code, "eval", "expression")
    try:
        return _outputs(interp.eval_string(source, nargout), nargout)
    except MatlabError as err:
        interp.last_error = err
        return _outputs(interp.eval_string(fallback, nargout), nargout)


@builtin("run", category="lang", nargin=(1, 1), nargout=(0, 0), needs_ctx=True)
def run(ctx: Any, script: Any) -> None:
    """Run a script file in the caller's workspace."""
    interp = _interp(ctx)
    text = text_arg(script, "run", "script name")
    path = text if text.endswith(".m") else text + ".m"
    if not os.path.isfile(path):
        scope = interp.frame.scope
        found = interp.functions.find_file(os.path.splitext(os.path.basename(path))[0],
                                           scope.folder if scope else None)
        if found is None:
            raise MatlabError("MATLAB:run:FileNotFound", f"{text} not found.")
        path = found
    scope = interp.functions.load_file(path)
    if scope.primary is not None:
        interp.invoke(scope.primary, [], 0)
    else:
        interp.run_script(scope, interp.frame)


@builtin("clear", category="lang", nargin=(0, None), nargout=(0, 0), needs_ctx=True)
def clear(ctx: Any, *names: Any) -> None:
    """clear, clear all, clear x y, clear global, clear functions, clear a*."""
    interp = _interp(ctx)
    frame = interp.frame
    words = [text_arg(n, "clear", "name") for n in names]
    if not words or words == ["-all"] or words == ["all"] or words == ["variables"]:
        frame.clear()
        frame.global_names.clear()
        if words and words[0] in ("all", "-all"):
            interp.functions.clear_cache()
            interp.invalidate()
        return None
    if words[0] in ("functions", "-functions", "classes"):
        interp.functions.clear_cache()
        interp.invalidate()
        return None
    if words[0] in ("global", "-global"):
        targets = words[1:] or list(interp.globals)
        for name in targets:
            interp.globals.pop(name, None)
            frame.global_names.discard(name)
            frame.pop(name, None)
        return None
    for pattern in words:
        for name in list(frame) + list(frame.global_names):
            if fnmatch.fnmatchcase(name, pattern):
                frame.pop(name, None)
                frame.global_names.discard(name)
    return None


@builtin("who", category="lang", nargin=(0, None), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def who(ctx: Any, *patterns: Any, nargout: int = 0) -> Any:
    """List the variables of the current workspace."""
    names = ctx.variable_names()
    if patterns:
        pats = [text_arg(p, "who", "name") for p in patterns]
        names = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in pats)]
    if nargout > 0:
        return CellArray.from_list([char_array(n) for n in names], (len(names), 1))
    if names:
        ctx.write("Your variables are:\n\n" + "  ".join(names) + "  \n\n")
    return None


@builtin("format", category="lang", nargin=(0, 2), nargout=(0, 0), needs_ctx=True)
def format_(ctx: Any, *modes: Any) -> None:
    """``format long`` / ``format short`` / ``format`` (default)."""
    interp = _interp(ctx)
    if not modes:
        interp.display_format = "short"
        interp.display_spacing = "loose"
        return None
    for mode in modes:
        word = text_arg(mode, "format", "format").lower()
        if word.startswith("long"):
            interp.display_format = "long"
        elif word.startswith("short"):
            interp.display_format = "short"
        elif word in ("compact", "loose", "default"):
            if word == "default":
                interp.display_format = "short"
            interp.display_spacing = "compact" if word == "compact" else "loose"
        else:
            raise MatlabError("MATLAB:format:unknownFormat", f"Unknown format '{word}'.")
    return None


def _path_dirs(args: tuple) -> tuple[list[str], str]:
    dirs: list[str] = []
    where = "-begin"
    for a in args:
        text = text_arg(a, "addpath", "folder")
        if text in ("-begin", "-end", "-BEGIN", "-END"):
            where = text.lower()
            continue
        if text in ("-frozen",):
            continue
        dirs.extend(os.path.abspath(d) for d in text.split(os.pathsep) if d)
    return dirs, where


@builtin("addpath", category="lang", nargin=(1, None), nargout=(0, 1), needs_ctx=True)
def addpath(ctx: Any, *args: Any) -> Any:
    """Add folders to the function search path (front by default)."""
    interp = _interp(ctx)
    old = os.pathsep.join(interp.functions.path)
    dirs, where = _path_dirs(args)
    for d in dirs:
        if not os.path.isdir(d):
            ctx.write_err(f"Warning: Name is nonexistent or not a directory: {d}\n")
    dirs = [d for d in dirs if os.path.isdir(d)]
    current = [p for p in interp.functions.path if p not in dirs]
    interp.functions.path = dirs + current if where == "-begin" else current + dirs
    interp.invalidate()
    return char_array(old)


@builtin("rmpath", category="lang", nargin=(1, None), nargout=(0, 1), needs_ctx=True)
def rmpath(ctx: Any, *args: Any) -> Any:
    """Remove folders from the search path."""
    interp = _interp(ctx)
    old = os.pathsep.join(interp.functions.path)
    dirs, _ = _path_dirs(args)
    interp.functions.path = [p for p in interp.functions.path if p not in dirs]
    interp.invalidate()
    return char_array(old)


@builtin("path", category="lang", nargin=(0, 2), nargout=(0, 1), needs_ctx=True,
         wants_nargout=True)
def path(ctx: Any, *args: Any, nargout: int = 0) -> Any:
    """Show, return or set the search path."""
    interp = _interp(ctx)
    if args:
        dirs: list[str] = []
        for a in args:
            dirs.extend(os.path.abspath(d) for d in text_arg(a, "path", "path").split(os.pathsep)
                        if d)
        interp.functions.path = list(dict.fromkeys(dirs))
        interp.invalidate()
    text = os.pathsep.join(interp.functions.path)
    if nargout > 0 or args:
        return char_array(text) if nargout > 0 else None
    ctx.write("\n\t\tMATLABPATH\n\n" + "".join(f"\t{p}\n" for p in interp.functions.path) + "\n")
    return None


@builtin("func2str", category="lang", nargin=(1, 1), nargout=(0, 1))
def func2str(fh: Any) -> np.ndarray:
    """Text of a function handle (``'sin'``, ``'@(x)x+1'``)."""
    if not isinstance(fh, FunctionHandle):
        raise MatlabError("MATLAB:func2str:InputNotFunctionHandle",
                          "Input argument must be a function handle.")
    return char_array(fh.text if fh.text is not None else (fh.name or ""))


@builtin("str2func", category="lang", nargin=(1, 2), nargout=(0, 1), needs_ctx=True)
def str2func(ctx: Any, text: Any, *_: Any) -> FunctionHandle:
    """Function handle from a name or an anonymous-function text."""
    source = text_arg(text, "str2func", "function name").strip()
    interp = _interp(ctx)
    if source.startswith("@"):
        from matfuse.vm.workspace import Frame

        # An empty workspace: str2func anonymous functions capture nothing.
        empty = Frame(interp, "str2func", None, interp.frame.scope)
        prev, interp.frame = interp.frame, empty
        try:
            values = interp.eval_string(source, 1)
        finally:
            interp.frame = prev
        return values[0]
    return FunctionHandle(name=source, scope=interp.frame.scope)


@builtin("builtin", category="lang", nargin=(1, None), nargout=(0, None), needs_ctx=True,
         wants_nargout=True)
def builtin_(ctx: Any, name: Any, *args: Any, nargout: int = 0) -> Any:
    """Call the builtin NAME even when a user function shadows it."""
    from matfuse.runtime.dispatcher import call_builtin

    text = text_arg(name, "builtin", "function name")
    decl = lookup(text)
    if decl is None:
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Unrecognized function or variable '{text}'.")
    return _outputs(call_builtin(decl, list(args), nargout, ctx), nargout)


@builtin("iskeyword", category="lang", nargin=(0, 1), nargout=(0, 1))
def iskeyword(name: Any = None) -> Any:
    if name is None:
        return CellArray.from_list([char_array(k) for k in sorted(MATLAB_KEYWORDS)],
                                   (len(MATLAB_KEYWORDS), 1))
    return is_text(name) and to_str(name) in MATLAB_KEYWORDS

