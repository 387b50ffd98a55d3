"""Helpers for the part-A builtin tests: call through the dispatcher."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.dispatcher import call_builtin
import importlib

from matfuse.runtime.registry import lookup
from matfuse.runtime.values import char_array

# Import this area's modules directly (not load_all): the tests then do not
# depend on other areas' modules importing cleanly.
PART_A_MODULES = ("bitwise", "complex_parts", "construction", "elementwise_math",
                  "elementwise_trig", "integer_math", "minmax", "accumulation", "number_theory", "ranges",
                  "replication", "search", "sets", "shape", "sorting", "special_functions")
for _module in PART_A_MODULES:
    importlib.import_module(f"matfuse.runtime.builtins.{_module}")


def call(name: str, *args: Any, nargout: int = 1) -> Any:
    """Call builtin ``name`` as the VM would; one value or a tuple."""
    decl = lookup(name)
    assert decl is not None, f"builtin {name} not registered"
    outs = call_builtin(decl, list(args), nargout, None)
    if nargout <= 1:
        return outs[0] if outs else None
    return tuple(outs[:nargout])


def raises(identifier: str, name: str, *args: Any, nargout: int = 1,
           message: str | None = None, named: bool = True) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        call(name, *args, nargout=nargout)
    assert info.value.identifier == identifier, repr(info.value)
    if message is not None:
        assert info.value.message == message
    if named:
        # Errors raised by the implementation name it ("Error using NAME").
        assert info.value.function_name == name
    return info.value


def row(*values: float) -> np.ndarray:
    return np.array([values], dtype=np.float64)


def col(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64).reshape(-1, 1)


def ints(cls: str, *values: int) -> np.ndarray:
    return np.array([values], dtype=np.dtype(cls))


def text(s: str) -> np.ndarray:
    return char_array(s)


def same(actual: Any, expected: Any) -> None:
    """Exact equality of value, class (dtype) and shape; NaN equals NaN."""
    if isinstance(expected, (float, bool)):
        assert type(actual) is type(expected), (actual, expected)
        if isinstance(expected, float) and expected != expected:
            assert actual != actual
        else:
            assert actual == expected, (actual, expected)
        return
    assert type(actual) is np.ndarray, actual
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)
