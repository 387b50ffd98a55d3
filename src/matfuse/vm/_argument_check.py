"""Function ``arguments`` blocks: input validation and defaults on entry.

Positional entries validate (and convert) the parameter of the same name,
or give it its default when the caller did not pass it; a missing input with
no default is MATLAB's "Not enough input arguments.". Name-value entries
``opts.Field`` make the last parameter ``opts`` collect the trailing
``'Field', value`` pairs (names match case-insensitively) into a struct that
starts with the declared defaults.
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.errors import MatlabError
from matfuse.lang import ast
from matfuse.runtime.classdef_validation import property_validator
from matfuse.runtime.values import CellArray, StructArray, is_char, to_str
from matfuse.vm._expr import ExprCompiler
from matfuse.vm.function_context import FunctionContext
from matfuse.vm.workspace import Frame


class _Owner:
    """What validators need of their owner: a name and the interpreter."""

    def __init__(self, name: str, file: str | None):
        self.name = name
        self.file = file
        self.interp: Any = None


def _entry_plan(entry: ast.PropertyDef, owner: _Owner, scope: Any, prefix: str) -> tuple:
    checks = [_validator(v, entry.name, owner, scope) for v in entry.validators]
    validate = property_validator(entry, owner, checks, prefix)
    default = None
    if entry.default is not None:
        default = _default_closure(entry.default, scope)
    return entry.name, validate, default


def _validator(node: ast.Expr, name: str, owner: _Owner, scope: Any) -> Callable[[Any], None]:
    """A validation function of one entry: ``mustBeX`` gets the value;
    ``mustBeX(x, ...)`` / ``mustBeX(opts.F, ...)`` runs with the input (or
    a struct holding it) bound to its name."""
    if "." not in name or isinstance(node, ast.Ident):
        return validator_call(node, name, owner, scope)
    struct_name, field = name.split(".", 1)
    multi = ExprCompiler(FunctionContext(scope, set(), None)).multi(node)

    def call_expr(value: Any) -> None:
        fr = Frame(owner.interp, owner.name, owner.file, scope)
        fr[struct_name] = StructArray.scalar({field: value})
        multi(fr, 0)
    return call_expr


def validator_call(node: ast.Expr, prop_name: str, info: Any,
                   scope: Any) -> Callable[[Any], None]:
    """A validation function of a class property or an ``arguments`` entry:
    ``mustBeX`` gets the value; ``mustBeX(P, a)`` runs with the name ``P``
    bound to the value. ``info``: the owner (its ``name``, ``file`` and,
    once linked, ``interp``)."""
    if isinstance(node, ast.Ident):
        name = node.name

        def call_named(value: Any) -> None:
            info.interp.call(name, [value], 0)
        return call_named
    multi = ExprCompiler(FunctionContext(scope, set(), None)).multi(node)

    def call_expr(value: Any) -> None:
        fr = Frame(info.interp, info.name, info.file, scope)
        fr[prop_name] = value
        multi(fr, 0)
    return call_expr


def _default_closure(node: ast.Expr, scope: Any) -> Callable[[Any], Any]:
    """A default value expression, evaluated in the function's workspace
    (it may use the inputs before it)."""
    return ExprCompiler(FunctionContext(scope, set(), None)).value(node)


def compile_argument_check(node: ast.Function, cf: Any, scope: Any) -> Callable[[Any], None] | None:
    """The entry check of ``node``'s arguments blocks (adjusting ``cf`` for
    name-value input), or None when it has none."""
    entries = [e for block in node.arguments for e in block.entries
               if not _attr_true(block, "Output")]
    if not entries:
        return None
    owner = _Owner(node.name, cf.file)
    positional = []
    named: dict[str, tuple] = {}
    struct_name = None
    for entry in entries:
        if "." in entry.name:
            struct_name, field = entry.name.split(".", 1)
            prefix = f"Invalid value for '{field}' argument. "
            named[field] = _entry_plan(entry, owner, scope, prefix)
        else:
            k = cf.params.index(entry.name) + 1 if entry.name in cf.params else 0
            prefix = f"Invalid argument at position {k}. "
            positional.append((k,) + _entry_plan(entry, owner, scope, prefix))
    if struct_name is not None and cf.params and cf.params[-1] == struct_name:
        cf.params = cf.params[:-1]
        cf.varargin = True

    def check(fr: Any) -> None:
        owner.interp = fr.interp
        for position, name, validate, default in positional:
            if name in fr:
                if validate is not None:
                    fr[name] = validate(fr[name])
            elif default is not None:
                value = default(fr)
                fr[name] = validate(value) if validate is not None else value
            else:
                raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
        if struct_name is not None:
            rest = fr.pop("varargin", None)
            pairs = list(rest.data.reshape(-1, order="F")) if type(rest) is CellArray else []
            fr[struct_name] = _name_values(fr, pairs, named)
        return None
    return check


def _attr_true(block: ast.ArgumentsBlock, name: str) -> bool:
    return name in block.attributes


def _name_values(fr: Any, pairs: list, named: dict[str, tuple]) -> StructArray:
    values: dict[str, Any] = {}
    for field, (_, validate, default) in named.items():
        if default is not None:
            value = default(fr)
            values[field] = validate(value) if validate is not None else value
    if len(pairs) % 2:
        raise MatlabError("MATLAB:InputParser:ParamMissingValue",
                          "Name-value arguments must come in pairs.")
    lookup = {f.lower(): f for f in named}
    for k in range(0, len(pairs), 2):
        key = pairs[k]
        if not (is_char(key) or type(key).__name__ == "StringArray"):
            raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
        field = lookup.get(to_str(key).lower())
        if field is None:
            raise MatlabError("MATLAB:InputParser:UnmatchedParameter",
                              f"Invalid name-value argument '{to_str(key)}'. Valid names are "
                              + ", ".join(f"'{f}'" for f in named) + ".")
        validate = named[field][1]
        value = pairs[k + 1]
        values[field] = validate(value) if validate is not None else value
    ordered = {f: values[f] for f in named if f in values}
    return StructArray.scalar(ordered)
