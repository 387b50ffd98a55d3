"""Random arithmetic expressions: matfuse's compiled closures vs NumPy."""

from __future__ import annotations

import io

import numpy as np
from hypothesis import given, settings, strategies as st

from matfuse.vm.session import Session

_SESSION = Session(stdout=io.StringIO())
_SESSION.set("A", np.array([[1.5, -2.0], [0.25, 4.0]]))
_SESSION.set("B", np.array([[3.0, 0.5], [-1.0, 2.0]]))
_SESSION.set("r", np.array([[1.0, 2.0]]))
_ENV = {"A": np.array([[1.5, -2.0], [0.25, 4.0]]), "B": np.array([[3.0, 0.5], [-1.0, 2.0]]),
        "r": np.array([[1.0, 2.0]])}

_leaf = st.one_of(
    st.sampled_from(["A", "B", "r"]).map(lambda n: (n, n)),
    st.integers(-9, 9).map(lambda k: (f"{k}", f"{float(k)!r}")),
    st.floats(-4, 4, allow_nan=False).map(lambda x: (f"({x!r})", f"({x!r})")),
)


def _combine(children):
    ops = st.sampled_from(["+", "-", ".*", "*scalar"])

    def build(parts):
        (ml_a, py_a), op, (ml_b, py_b) = parts
        if op == "*scalar":
            return (f"({ml_a}) * 2", f"(({py_a}) * 2.0)")
        return (f"({ml_a} {op} {ml_b})", f"({py_a} {op.lstrip('.')} {py_b})")
    return st.tuples(children, ops, children).map(build) | children.map(
        lambda p: (f"-({p[0]})", f"(-({p[1]}))"))


expressions = st.recursive(_leaf, _combine, max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(expressions)
def test_arithmetic_matches_numpy(expr) -> None:
    matlab, python = expr
    _SESSION.eval(f"z__ = {matlab};")
    got = _SESSION.get("z__")
    expected = eval(python, {}, dict(_ENV))  # noqa: S307 - generated arithmetic only
    np.testing.assert_allclose(np.asarray(got, dtype=float).reshape(np.shape(expected) or ()),
                               expected, rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(-1e6, 1e6, allow_nan=False),
       st.sampled_from(["+", "-", "*", "/", "<", "<=", "==", "~=", ">", ">="]))
def test_scalar_fast_path_matches_python(a: float, b: float, op: str) -> None:
    _SESSION.set("p__", a)
    _SESSION.set("q__", b)
    _SESSION.eval(f"z__ = p__ {op} q__;")
    got = _SESSION.get("z__")
    if op == "/" and b == 0.0:
        return  # MATLAB's division by zero is the operators helper's (Inf/NaN)
    py = {"~=": "!="}.get(op, op)
    expected = eval(f"a {py} b")  # noqa: S307 - op from a fixed list
    assert got == expected and type(got) is type(expected)
