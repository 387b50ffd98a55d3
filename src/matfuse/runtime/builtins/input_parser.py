"""inputParser: parse a function's inputs (a handle object).

``p = inputParser`` then ``addRequired(p, name, validator)``,
``addOptional(p, name, default, validator)``, ``addParameter(p, name,
default, validator)`` (``addParamValue`` is its old name) and
``parse(p, args{:})``; the results are ``p.Results`` (fields in alphabetical
order, as MATLAB lists them), ``p.Unmatched`` (with ``KeepUnmatched``),
``p.UsingDefaults`` and ``p.Parameters``. Methods are also callable with dot
syntax (``p.addRequired(...)``). Parameter names match case-insensitively
and by unique prefix (``CaseSensitive``/``PartialMatching``); a struct
expands to name-value pairs (``StructExpand``). Copies share one parser,
as MATLAB's handle objects do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CellArray,
    FunctionHandle,
    MObject,
    StructArray,
    char_array,
    to_array,
    to_str,
)

_FLAGS = ("KeepUnmatched", "CaseSensitive", "PartialMatching", "StructExpand")


@dataclass
class _Argument:
    name: str
    kind: str               # 'required', 'optional', 'parameter'
    default: Any
    validator: Any


class InputParser(MObject):
    """State of one inputParser object."""

    class_name = "inputParser"
    is_handle_object = True

    def __init__(self, interp: Any):
        self._interp = interp
        self.arguments: list[_Argument] = []
        self.flags = {"KeepUnmatched": False, "CaseSensitive": False,
                      "PartialMatching": True, "StructExpand": True}
        self.function_name = ""
        self.results: dict[str, Any] = {}
        self.unmatched: dict[str, Any] = {}
        self.using_defaults: list[str] = []

    # ------------------------------------------------------------ properties
    def property_names(self) -> list[str]:
        return ["FunctionName", "CaseSensitive", "KeepUnmatched", "PartialMatching",
                "StructExpand", "Parameters", "Results", "Unmatched", "UsingDefaults"]

    def get_property(self, name: str) -> Any:
        methods = {"addRequired": self.add_required, "addOptional": self.add_optional,
                   "addParameter": self.add_parameter, "addParamValue": self.add_parameter,
                   "parse": self.parse}
        if name in methods:
            method = methods[name]
            return FunctionHandle(fn=lambda args, nargout: _no_outputs(method(list(args))),
                                  text=f"@(varargin) {name}(p, varargin{{:}})")
        if name in _FLAGS:
            return self.flags[name]
        if name == "FunctionName":
            return make_char(self.function_name)
        if name == "Parameters":
            names = sorted((a.name for a in self.arguments), key=str.lower)
            return CellArray.from_list([char_array(n) for n in names], (1, len(names)))
        if name == "Results":
            return _struct(self.results)
        if name == "Unmatched":
            return _struct(self.unmatched)
        if name == "UsingDefaults":
            return CellArray.from_list([char_array(n) for n in self.using_defaults],
                                       (1, len(self.using_defaults)))
        return super().get_property(name)

    def set_property(self, name: str, value: Any) -> None:
        if name in _FLAGS:
            self.flags[name] = bool(to_array(value).reshape(-1)[0])
        elif name == "FunctionName":
            self.function_name = to_str(value)
        else:
            raise MatlabError("MATLAB:class:SetProhibited",
                              f"Unable to set the '{name}' property of class 'inputParser'.")

    # --------------------------------------------------------------- methods
    def _add(self, kind: str, args: list[Any], with_default: bool) -> None:
        if not args or not is_text(args[0]):
            raise MatlabError("MATLAB:InputParser:InvalidName", "Argument name must be a character vector.")
        name = to_str(args[0])
        if any(a.name.lower() == name.lower() for a in self.arguments):
            raise MatlabError("MATLAB:InputParser:DuplicateParameter",
                              f"An argument named '{name}' already exists in the schema.")
        rest = args[1:]
        default = rest.pop(0) if with_default and rest else None
        if with_default and default is None:
            raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
        validator = rest[0] if rest else None
        if validator is not None and not isinstance(validator, FunctionHandle):
            raise MatlabError("MATLAB:InputParser:ValidationFunctionNotHandle",
                              "The validation function must be a function handle.")
        self.arguments.append(_Argument(name, kind, default, validator))

    def add_required(self, args: list[Any]) -> None:
        self._add("required", args, False)

    def add_optional(self, args: list[Any]) -> None:
        self._add("optional", args, True)

    def add_parameter(self, args: list[Any]) -> None:
        self._add("parameter", args, True)

    def _valid(self, arg: _Argument, value: Any, raise_error: bool) -> bool:
        if arg.validator is None:
            return True
        try:
            out = self._interp.call(arg.validator, [value], 1)
        except MatlabError as err:
            if raise_error:
                raise MatlabError("MATLAB:InputParser:ArgumentFailedValidation",
                                  f"The value of '{arg.name}' is invalid. {err.message}") from None
            return False
        if out and out[0] is not None and np.size(to_array(out[0])) and not np.all(to_array(out[0])):
            if raise_error:
                raise MatlabError("MATLAB:InputParser:ArgumentFailedValidation",
                                  f"The value of '{arg.name}' is invalid. It must satisfy the function: "
                                  f"{_validator_text(arg.validator)}.")
            return False
        return True

    def _parameter(self, name: str) -> _Argument | None:
        params = [a for a in self.arguments if a.kind == "parameter"]
        same = (lambda a, b: a == b) if self.flags["CaseSensitive"] else (lambda a, b: a.lower() == b.lower())
        exact = [a for a in params if same(a.name, name)]
        if exact:
            return exact[0]
        if self.flags["PartialMatching"]:
            key = name if self.flags["CaseSensitive"] else name.lower()
            hits = [a for a in params if (a.name if self.flags["CaseSensitive"] else a.name.lower()).startswith(key)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise MatlabError("MATLAB:InputParser:AmbiguousParameter",
                                  f"Ambiguous parameter name '{name}'.")
        return None

    def parse(self, args: list[Any]) -> None:
        values: dict[str, Any] = {}
        pending = list(args)
        for arg in [a for a in self.arguments if a.kind == "required"]:
            if not pending:
                raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
            value = pending.pop(0)
            self._valid(arg, value, True)
            values[arg.name] = value
        for arg in [a for a in self.arguments if a.kind == "optional"]:
            if not pending:
                break
            value = pending[0]
            if is_text(value) and self._parameter(to_str(value)) is not None:
                break
            maybe_parameters = is_text(value) or (isinstance(value, StructArray) and self.flags["StructExpand"])
            if not self._valid(arg, value, not maybe_parameters):
                break
            values[arg.name] = pending.pop(0)
        unmatched: dict[str, Any] = {}
        while pending:
            item = pending.pop(0)
            if isinstance(item, StructArray) and self.flags["StructExpand"] and item.data.size == 1:
                expanded = item.data.reshape(-1)[0]
                pending = [x for k in item.fields for x in (char_array(k), expanded[k])] + pending
                continue
            if not is_text(item):
                raise MatlabError("MATLAB:InputParser:ParamMustBeChar",
                                  "Expected a parameter name, followed by its value.")
            name = to_str(item)
            if not pending:
                raise MatlabError("MATLAB:InputParser:ParamMissingValue",
                                  f"No value was given for '{name}'. Name-value pair arguments "
                                  "require a name followed by a value.")
            value = pending.pop(0)
            arg = self._parameter(name)
            if arg is None:
                if self.flags["KeepUnmatched"]:
                    unmatched[name] = value
                    continue
                raise MatlabError("MATLAB:InputParser:UnmatchedParameter",
                                  f"'{name}' is not a recognized parameter. For a list of valid "
                                  "name-value pair arguments, see the documentation for this function.")
            self._valid(arg, value, True)
            values[arg.name] = value
        defaults = [a.name for a in self.arguments if a.name not in values]
        for arg in self.arguments:
            if arg.name not in values:
                values[arg.name] = arg.default
        self.results = {k: values[k] for k in sorted(values, key=str.lower)}
        self.unmatched = {k: unmatched[k] for k in sorted(unmatched, key=str.lower)}
        self.using_defaults = defaults


def _validator_text(fh: FunctionHandle) -> str:
    """'isnumeric' for @isnumeric; anonymous functions keep their text."""
    return fh.name if fh.name is not None and fh.fn is None else fh.display_text()


def _struct(fields: dict[str, Any]) -> StructArray:
    return StructArray.scalar(dict(fields))


def _no_outputs(_: None) -> list:
    return []


def _parser_arg(p: Any, fn: str) -> InputParser:
    if not isinstance(p, InputParser):
        raise MatlabError("MATLAB:UndefinedFunction",
                          f"Undefined function '{fn}' for input arguments of this type.")
    return p


@builtin("inputParser", category="validation", nargin=(0, 0), needs_ctx=True)
def inputParser(ctx: Any) -> Any:
    """A new input parser object (handle semantics)."""
    return InputParser(ctx.interp)


@builtin("addRequired", category="validation", nargin=(2, 3), nargout=(0, 0))
def addRequired(p: Any, *args: Any) -> None:
    """addRequired(p, name, validator): a positional input that must be given."""
    _parser_arg(p, "addRequired").add_required(list(args))


@builtin("addOptional", category="validation", nargin=(3, 4), nargout=(0, 0))
def addOptional(p: Any, *args: Any) -> None:
    """addOptional(p, name, default, validator): a positional input that may be omitted."""
    _parser_arg(p, "addOptional").add_optional(list(args))


@builtin("addParameter", category="validation", nargin=(3, 4), nargout=(0, 0),
         aliases=("addParamValue",))
def addParameter(p: Any, *args: Any) -> None:
    """addParameter(p, name, default, validator): a name-value pair input."""
    _parser_arg(p, "addParameter").add_parameter(list(args))


@builtin("parse", category="validation", nargin=(1, None), nargout=(0, 0))
def parse(p: Any, *args: Any) -> None:
    """parse(p, args{:}): match the inputs against the parser's schema."""
    _parser_arg(p, "parse").parse(list(args))
