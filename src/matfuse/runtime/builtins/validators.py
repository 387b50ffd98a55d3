"""Validation functions (``mustBePositive`` ...): used in property
validation blocks of ``classdef`` files and callable directly. Each returns
nothing and errors with MATLAB's identifier and message when the value is
not valid."""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.values import (
    CellArray, DeviceValue, StringArray, is_char, shape_of, to_array,
)


def _numeric(value: Any, name: str) -> np.ndarray:
    if isinstance(value, DeviceValue):
        value = value.gather()
    if is_char(value) or not isinstance(value, (float, bool, np.ndarray, complex)):
        raise MatlabError(f"MATLAB:validators:{name}",
                          "Value must be numeric or logical.")
    return to_array(value)


def _fail(name: str, message: str) -> None:
    raise MatlabError(f"MATLAB:validators:{name}", message)


def _declare(name: str, test: Any, message: str, doc: str) -> None:
    from matfuse.runtime.registry import builtin

    def validate(value: Any) -> None:
        arr = _numeric(value, name)
        if not test(arr):
            _fail(name, message)
        return None

    validate.__doc__ = doc
    builtin(name, category="validation", nargin=(1, 1), nargout=(0, 0))(validate)


def _real_part(arr: np.ndarray) -> np.ndarray:
    return arr.real if arr.dtype.kind == "c" else arr


_declare("mustBePositive", lambda a: a.dtype.kind != "c" and bool(np.all(a > 0)),
         "Value must be positive.", "Error unless every element is positive.")
_declare("mustBeNonnegative", lambda a: a.dtype.kind != "c" and bool(np.all(a >= 0)),
         "Value must be nonnegative.", "Error unless every element is nonnegative.")
_declare("mustBeNegative", lambda a: a.dtype.kind != "c" and bool(np.all(a < 0)),
         "Value must be negative.", "Error unless every element is negative.")
_declare("mustBeNonpositive", lambda a: a.dtype.kind != "c" and bool(np.all(a <= 0)),
         "Value must be nonpositive.", "Error unless every element is nonpositive.")
_declare("mustBeNonzero", lambda a: bool(np.all(a != 0)),
         "Value must not be zero.", "Error when an element is zero.")
_declare("mustBeFinite", lambda a: bool(np.all(np.isfinite(a))),
         "Value must be finite.", "Error when an element is Inf or NaN.")
_declare("mustBeNonNan", lambda a: not bool(np.any(np.isnan(_real_part(a)))),
         "Value must not be NaN.", "Error when an element is NaN.")
_declare("mustBeReal", lambda a: a.dtype.kind != "c",
         "Value must be real.", "Error when the value is complex.")
_declare("mustBeInteger",
         lambda a: a.dtype.kind in "iub" or (a.dtype.kind == "f" and bool(
             np.all(np.isfinite(a)) and np.all(a == np.floor(a)))),
         "Value must be integer.", "Error unless every element is an integer value.")


def _register_others() -> None:
    from matfuse.runtime.registry import builtin

    @builtin("mustBeNumeric", category="validation", nargin=(1, 1), nargout=(0, 0))
    def must_be_numeric(value: Any) -> None:
        """Error unless the value is numeric."""
        if isinstance(value, DeviceValue):
            value = value.gather()
        ok = type(value) is float or (type(value) is np.ndarray and value.dtype.kind in "iufc")
        if not ok:
            _fail("mustBeNumeric", "Value must be numeric.")
        return None

    @builtin("mustBeNumericOrLogical", category="validation", nargin=(1, 1), nargout=(0, 0))
    def must_be_numeric_or_logical(value: Any) -> None:
        """Error unless the value is numeric or logical."""
        if isinstance(value, DeviceValue):
            value = value.gather()
        ok = type(value) in (float, bool) or (
            type(value) is np.ndarray and value.dtype.kind in "iufcb")
        if not ok:
            _fail("mustBeNumericOrLogical", "Value must be numeric or logical.")
        return None

    @builtin("mustBeNonempty", category="validation", nargin=(1, 1), nargout=(0, 0))
    def must_be_nonempty(value: Any) -> None:
        """Error when the value is empty."""
        if 0 in shape_of(value):
            _fail("mustBeNonempty", "Value must not be empty.")
        return None

    @builtin("mustBeText", category="validation", nargin=(1, 1), nargout=(0, 0))
    def must_be_text(value: Any) -> None:
        """Error unless the value is a string array, char vector or cell of char vectors."""
        ok = isinstance(value, StringArray) or (is_char(value) and value.shape[0] <= 1) or (
            type(value) is CellArray and all(is_char(v) for v in value.data.reshape(-1)))
        if not ok:
            _fail("mustBeText", "Value must be a character vector, a string array or a "
                  "cell array of character vectors.")
        return None

    @builtin("mustBeMember", category="validation", nargin=(2, 2), nargout=(0, 0),
             needs_ctx=True)
    def must_be_member(ctx: Any, value: Any, allowed: Any) -> None:
        """Error unless every element of the value is in the allowed set."""
        found = ctx.call("ismember", [value, allowed], 1)[0]
        if not bool(np.all(to_array(found))):
            _fail("mustBeMember", "Value must be a member of the specified set.")
        return None


_register_others()
