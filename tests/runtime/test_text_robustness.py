"""Every display/strings/cells builtin answers odd arguments with a MatlabError,
never a Python exception; display never fails on any value."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.display import disp_text, display_value
from matfuse.runtime.registry import BUILTINS
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    FunctionHandle,
    StringArray,
    StructArray,
    char_array,
    char_rows,
)
from text_support import call, cellrow, handle, load_all, s, session_context, strs

load_all()
_MODULES = {f"matfuse.runtime.builtins.{m}" for m in
            ("output", "number_text", "strings", "string_compare", "text_conversions",
             "regexp", "cells_structs", "function_apply")}
NAMES = sorted({n for n, b in BUILTINS.items() if b.impl.__module__ in _MODULES})

ODD_VALUES = [
    5.0, -2.5, True, np.zeros((0, 0)), np.array([[1.0, 2], [3, 4]]), s("abc"), s(""),
    char_rows(["ab", "cd"]), cellrow("a", "bc"), CellArray.empty((0, 0)), strs("x", "yz"),
    StringArray.scalar("q"), StructArray.scalar({"a": 1.0}), handle(lambda *a: 1.0),
    np.array([[1, 2]], dtype=np.int8), complex(1, 2), np.array([[np.nan, np.inf]]),
    np.ones((2, 2, 2)),
]


@pytest.mark.parametrize("name", NAMES)
def test_builtin_only_raises_matlab_errors(name):
    combos = itertools.chain([()], ((v,) for v in ODD_VALUES),
                             itertools.product(ODD_VALUES, repeat=2))
    # A real interpreter, so text-evaluating builtins (str2num) take their
    # eval path whatever other tests loaded before this one.
    ctx = session_context()
    for args in combos:
        try:
            call(name, *args, ctx=ctx)
        except MatlabError:
            pass


DISPLAY_VALUES = ODD_VALUES + [
    -0.0, np.float32(1e30), np.array([[-2 ** 63]], dtype=np.int64),
    np.array([[2 ** 64 - 1]], dtype=np.uint64), np.zeros((0, 3, 2)), np.ones((1, 1, 3)),
    np.array([[1e300, -1e-300]]), np.array([[1 + 1j, np.nan]]), np.zeros((2, 2, 2), dtype=CHAR_DTYPE),
    np.zeros((1, 0), dtype=CHAR_DTYPE), StringArray(np.array([[None, "a"]], dtype=object)),
    StringArray(np.empty((0, 1), dtype=object)), FunctionHandle(name="sin"), MatlabError("a:b", "c"),
    CellArray.from_list([char_array("x")] * 4, (2, 1, 2)),
]


@pytest.mark.parametrize("index", range(len(DISPLAY_VALUES)))
def test_display_never_fails(index):
    value = DISPLAY_VALUES[index]
    for wrapped in (value, CellArray.from_list([value, value]), StructArray.scalar({"f": value})):
        for fmt in ("short", "long"):
            assert isinstance(display_value("x", wrapped, fmt), str)
            assert isinstance(disp_text(wrapped, fmt), str)
