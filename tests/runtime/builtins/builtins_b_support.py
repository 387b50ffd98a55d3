"""Helpers for the part-B builtin tests: call through the dispatcher."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

from matfuse.errors import MatlabError
from matfuse.runtime.dispatcher import call_builtin
from matfuse.runtime.registry import lookup
from matfuse.runtime.values import char_array

# Import this area's modules directly so the tests do not depend on other
# areas' modules importing cleanly.
PART_B_MODULES = ("reductions", "cumulative", "statistics", "histograms", "moving_normalize",
                  "normalize_data",
                  "norms", "linalg", "linalg_decomp", "signal", "fourier", "polynomial",
                  "interpolation", "random", "environment", "files", "matfiles", "filesystem")
for _module in PART_B_MODULES:
    importlib.import_module(f"matfuse.runtime.builtins.{_module}")


class FakeContext:
    """The part of the VM's ctx that part-B builtins use."""

    def __init__(self) -> None:
        self.vars: dict[str, Any] = {}
        self.output: list[str] = []

    def get_var(self, name: str) -> Any:
        return self.vars.get(name)

    def set_var(self, name: str, value: Any) -> None:
        self.vars[name] = value

    def variable_names(self) -> list[str]:
        return sorted(self.vars)

    def write(self, text: str) -> None:
        self.output.append(text)

    def write_err(self, text: str) -> None:
        self.output.append(text)


def call(name: str, *args: Any, nargout: int = 1, ctx: Any = None) -> Any:
    """Call builtin ``name`` as the VM would; one value or a tuple."""
    decl = lookup(name)
    assert decl is not None, f"builtin {name} not registered"
    outs = call_builtin(decl, list(args), nargout, ctx)
    if nargout <= 1:
        return outs[0] if outs else None
    return tuple(outs[:nargout])


def raises(identifier: str, name: str, *args: Any, nargout: int = 1, ctx: Any = None,
           message: str | None = None) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        call(name, *args, nargout=nargout, ctx=ctx)
    assert info.value.identifier == identifier, repr(info.value)
    if message is not None:
        assert info.value.message == message
    assert info.value.function_name == name
    return info.value


def row(*values: float) -> np.ndarray:
    return np.array([values], dtype=np.float64)


def col(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float64).reshape(-1, 1)


def text(s: str) -> np.ndarray:
    return char_array(s)


def close(actual: Any, expected: Any, rtol: float = 1e-12, atol: float = 1e-12) -> None:
    """Same shape (as MATLAB arrays) and values within tolerance."""
    a = np.asarray(actual)
    e = np.asarray(expected)
    if a.ndim == 0:
        a = a.reshape(1, 1)
    if e.ndim == 0:
        e = e.reshape(1, 1)
    assert a.shape == e.shape, (a.shape, e.shape)
    np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
