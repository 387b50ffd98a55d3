"""``s.(name) = v`` (one dynamic field level, compiled directly): MATLAB's
copy-on-write, new-field checks and errors."""

from __future__ import annotations

import io

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.session import Session


def _run(code: str) -> str:
    out = io.StringIO()
    Session(stdout=out, stderr=io.StringIO()).eval(code)
    return out.getvalue()


def test_a_shared_struct_is_copied_on_write():
    assert _run("r = struct('a', 1); t = r; t.('b') = 2; t.('a') = 5; "
                "disp(numel(fieldnames(r))); disp(r.a); disp(t.a)") == "     1\n     1\n     5\n"


def test_new_variable_string_names_and_existing_fields():
    assert _run("clear q; q.(\"s\") = 3; q.('s') = q.s + 1; n = 'x'; q.(n) = 7; "
                "disp(q.s); disp(q.x); disp(strjoin(fieldnames(q)', ','))") == "     4\n     7\ns,x\n"


def test_a_struct_held_in_a_cell_is_not_changed():
    assert _run("r.a = 1; c = {r}; r.('a') = 2; disp(c{1}.a); disp(r.a)") == "     1\n     2\n"


@pytest.mark.parametrize("code, identifier", [
    ("x = 5; x.('a') = 1;", "MATLAB:dotAssignToNonStruct"),
    ("r = struct(); r.('1a') = 1;", "MATLAB:AddField:InvalidFieldName"),
    ("r = struct(); r.(5) = 1;", "MATLAB:dynamicFieldName"),
    ("s = struct('a', {1, 2}); s.('a') = 1;", "MATLAB:index:expected_one_output_from_expression"),
    ("c = {1}; c.('a') = 2;", "MATLAB:dotAssignToNonStruct"),
])
def test_errors(code, identifier):
    with pytest.raises(MatlabError) as err:
        _run(code)
    assert err.value.identifier == identifier


def test_a_failed_assignment_leaves_the_variable():
    assert _run("r.a = 1; try, r.('2b') = 3; catch, end; disp(fieldnames(r)')") == "    {'a'}\n"
