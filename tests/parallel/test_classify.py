"""parfor variable classification (no pool needed)."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from matfuse.lang.parser import parse
from matfuse.parallel.classify import classify


def _plan(body: str, var: str = "i"):
    program = parse(f"parfor {var} = 1:10\n{body}\nend\n", None)
    node = program.body[0]
    return classify(node.var.name, node.body)


def test_categories():
    plan = _plan("t = b * i;\na(i) = t + x(i) + y;\ns = s + t;\nc = [c, i];\nm = min(m, t);")
    assert plan.sliced_outputs == {"a"}
    assert set(plan.sliced) == {"a", "x"}
    assert set(plan.reductions) == {"s", "c", "m"}
    assert plan.reductions["c"].kind == "concat"
    assert plan.reductions["m"].kind == "call"
    assert plan.temporaries == {"t"}
    assert plan.reads == {"b", "y"}


def test_sliced_offset_and_dimension():
    plan = _plan("A(:, i + k) = B(2, i);", var="i")
    form = plan.sliced["A"]
    assert (form.dim, form.nsub, form.offset.name) == (1, 2, "k")
    assert plan.sliced["B"].dim == 1
    assert "k" in plan.reads


def test_input_read_two_ways_is_broadcast():
    plan = _plan("y = x(i) + x(1);")
    assert "x" in plan.reads and "x" not in plan.sliced


def test_reduction_rewritten_to_contributions():
    plan = _plan("s = s + i;")
    stmt = plan.body[0]
    assert type(stmt).__name__ == "ExprStmt"
    assert stmt.expr.base.name == "_parfor_contribute"


@pytest.mark.parametrize("body, ident", [
    ("a(i * 2) = i;", "MATLAB:parfor:variable_not_classified"),
    ("a(i) = a(i - 1);", "MATLAB:parfor:variable_not_classified"),
    ("a(r(i)) = 1;", "MATLAB:parfor:variable_not_classified"),
    ("a(end + 1) = i;", "MATLAB:parfor:variable_not_classified"),
    ("s = s + i; disp(s);", "MATLAB:parfor:variable_not_classified"),
    ("s = s + i; s = s * 2;", "MATLAB:parfor:variable_not_classified"),
    ("a(i) = 1; disp(a);", "MATLAB:parfor:variable_not_classified"),
    ("i = 3;", "MATLAB:parfor:loop_variable_set"),
    ("for i = 1:3, end", "MATLAB:parfor:loop_variable_set"),
    ("break;", "MATLAB:parfor:illegal_break"),
    ("return;", "MATLAB:parfor:illegal_return"),
    ("global g;", "MATLAB:parfor:global_declaration"),
    ("eval('x = 1;');", "MATLAB:parfor:transparency"),
    ("parfor j = 1:2, end", "MATLAB:parfor:nested_parfor"),
])
def test_classification_errors(body, ident):
    with pytest.raises(MatlabError) as info:
        _plan(body)
    assert info.value.identifier == ident
    assert info.value.span is not None


def test_message_names_the_variable():
    with pytest.raises(MatlabError) as info:
        _plan("a(i * 2) = i;")
    assert info.value.message == "The variable a in a parfor cannot be classified."


def test_temporary_indexed_after_plain_assignment():
    plan = _plan("t = zeros(1, 3);\nt(2) = i;\nr(i) = sum(t);")
    assert "t" in plan.temporaries and plan.sliced_outputs == {"r"}


def test_accumulator_assigned_in_body_is_a_temporary():
    plan = _plan("c = 0;\nfor r = 1:3\n c = c + r;\nend\nh(i) = c;")
    assert "c" in plan.temporaries and not plan.reductions
    assert type(plan.body[1].body[0]).__name__ == "Assign"
