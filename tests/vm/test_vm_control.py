"""Control flow, assignment and display through the compiled closures."""

from __future__ import annotations

import numpy as np
import pytest

from matfuse.errors import MatlabError
from vmutil import run, session


def test_display_and_ans() -> None:
    assert run("x = 5") == "x =\n\n     5\n\n"
    assert run("x = 5;") == ""
    assert run("2 + 3") == "ans =\n\n     5\n\n"
    s, out, _ = session()
    s.eval("1 + 1;")
    assert s.get("ans") == 2.0
    s.eval("y = 3;")
    assert s.get("ans") == 2.0  # assignments do not set ans


def test_function_without_outputs_prints_nothing() -> None:
    assert run("disp(1)") == "     1\n"
    assert "ans" not in run("f = @() disp(7); f()")


def test_for_range_yields_floats_lazily() -> None:
    s, _, _ = session()
    s.eval("t = 0; for i = 1:1e5, t = t + i; end")
    assert s.get("t") == 5000050000.0
    assert type(s.get("i")) is float


def test_for_over_matrix_columns_and_cells() -> None:
    s, _, _ = session()
    s.eval("acc = []; for c = [1 2; 3 4], acc(end+1) = c(1) * 10 + c(2); end")
    np.testing.assert_array_equal(s.get("acc"), [[13.0, 24.0]])
    s.eval("k = 0; for c = {1, 'a', []}, k = k + iscell(c); end")
    assert s.get("k") == 3.0


def test_empty_for_sets_loop_var_to_empty() -> None:
    s, _, _ = session()
    s.eval("i = 5; for i = zeros(1, 0), end")
    assert s.get("i").shape == (0, 0)


def test_break_continue_return() -> None:
    out = run("for i = 1:10, if i == 2, continue; end, if i > 4, break; end, "
              "fprintf('%d', i); end")
    assert out == "134"


def test_while_and_nested_break() -> None:
    assert run("n = 0; while n < 3, n = n + 1; end, fprintf('%d', n)") == "3"


def test_switch_matching_rules() -> None:
    code = ("function r = f(x)\n switch x\n case {1, 2}\n r = 'a';\n case 'txt'\n r = 'b';\n"
            " otherwise\n r = 'c';\n end\nend\n")
    s, out, _ = session()
    s.eval("x = 1;")  # a REPL-defined function via a script with local function
    s.eval("disp(1)\n" + code)
    assert s.call("f", 2.0) == "a"
    assert s.call("f", "txt") == "b"
    assert s.call("f", 7.0) == "c"


def test_multiple_assignment_nargout() -> None:
    s, _, _ = session()
    s.eval("[a, ~, c] = deal(1, 2, 3);")
    assert s.get("a") == 1.0 and s.get("c") == 3.0


def test_undefined_name_error() -> None:
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval("y = nosuchthing + 1;")
    assert info.value.identifier == "MATLAB:UndefinedFunction"
    assert info.value.message == "Unrecognized function or variable 'nosuchthing'."
    assert info.value.span is not None and info.value.span.col == 5


def test_errors_keep_statement_span_and_stack() -> None:
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval("a = 1;\nb = [1 2](3);")
    err = info.value
    assert err.span.line == 2
    assert err.stack and err.stack[0].line == 2


def test_python_exceptions_become_internal_errors(monkeypatch) -> None:
    from matfuse.runtime import ops

    def broken(op, a, b):
        raise ValueError("boom")

    monkeypatch.setattr(ops, "binary", broken)
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval("x = int8([1 2]) + int8([3 4]);")
    assert info.value.identifier == "matfuse:internalError"
    assert "boom" in info.value.message


def test_try_catch_binds_error_fields() -> None:
    out = run("try, error('a:b', 'n=%d', 4); catch e, fprintf('%s|%s', e.identifier, e.message); end")
    assert out == "a:b|n=4"


def test_deletion_and_growth() -> None:
    s, _, _ = session()
    s.eval("x = 1:5; x(2) = []; y(3) = 1;")
    np.testing.assert_array_equal(s.get("x"), [[1, 3, 4, 5]])
    np.testing.assert_array_equal(s.get("y"), [[0, 0, 1]])


def test_value_semantics_after_inplace_update() -> None:
    s, _, _ = session()
    s.eval("a = zeros(1, 3); b = a; b(2) = 5; c = {a}; a(1) = 7;")
    np.testing.assert_array_equal(s.get("b"), [[0, 5, 0]])
    np.testing.assert_array_equal(s.get("a"), [[7, 0, 0]])
    s.eval("d = c{1};")
    np.testing.assert_array_equal(s.get("d"), [[0, 0, 0]])


def test_anonymous_capture_is_by_value() -> None:
    assert run("a = 1; f = @(x) x + a; a = 100; fprintf('%d', f(1))") == "2"


def test_nested_end_binding() -> None:
    assert run("x = [5 6 7]; y = [1 3]; fprintf('%d', x(y(end)))") == "7"
    assert run("s.a = [1 2 9]; fprintf('%d', s.a(end))") == "9"


def test_recursion_limit_is_a_matlab_error() -> None:
    s, _, _ = session()
    s.eval("disp(0)\nfunction r = down(n)\n r = down(n + 1);\nend\n")
    with pytest.raises(MatlabError) as info:
        s.call("down", 1.0)
    assert info.value.identifier == "MATLAB:recursionLimit"


def test_interrupt_becomes_matlab_interrupt(monkeypatch) -> None:
    from matfuse.errors import MatlabInterrupt
    from matfuse.runtime import ops

    def interrupted(*args):
        raise KeyboardInterrupt

    s, _, _ = session()
    monkeypatch.setattr(ops, "binary", interrupted)
    with pytest.raises(MatlabInterrupt):
        s.eval("x = int8([1 2]) + 1;")
    monkeypatch.undo()
    s.eval("y = 2;")
    assert s.get("y") == 2.0


def test_copy_on_write_cells_and_arguments() -> None:
    s, _, _ = session()
    s.eval("c = {1, 2}; d = c; d{1} = 9; s.k = c; c{2} = 5;")
    assert s.get("d")[0] == 9.0 and s.get("c")[0] == 1.0
    assert s.get("s")["k"][1] == 2.0
    s.eval("v = [1 2 3]; w = poke(v);\nfunction x = poke(x)\n x(1) = 100;\nend\n")
    np.testing.assert_array_equal(s.get("v"), [[1, 2, 3]])
    np.testing.assert_array_equal(s.get("w"), [[100, 2, 3]])


def test_inplace_fill_loop_is_linear() -> None:
    s, _, _ = session()
    s.eval("x = zeros(1, 3000); for i = 1:3000, x(i) = i; end")
    assert s.get("x")[0, -1] == 3000.0


def test_undefined_function_with_arguments() -> None:
    s, _, _ = session()
    with pytest.raises(MatlabError) as info:
        s.eval("m = nosuch_fn(1, 2);")
    assert info.value.identifier == "MATLAB:UndefinedFunction"
    assert info.value.function_name is None
    assert info.value.span.col == 5


def test_copy_on_write_struct_fields() -> None:
    s, _, _ = session()
    s.eval("s.a = 1; s.b = 2; t = s; t.a = 10; c = {s}; s.b = 20; u = s; s.a = 5;"
           "p = struct('x', 1); q = p(1); p.x = 2; r = [p p]; p.x = 3;")
    element = s.get
    assert element("s") == {"a": 5.0, "b": 20.0}
    assert element("t") == {"a": 10.0, "b": 2.0}
    assert s.get("c")[0] == {"a": 1.0, "b": 2.0}
    assert element("u") == {"a": 1.0, "b": 20.0}
    assert element("q") == {"x": 1.0}
    assert [d["x"] for d in s.get("r")] == [2.0, 2.0]
    assert element("p") == {"x": 3.0}
