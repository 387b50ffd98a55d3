"""The VM's compile cache for REPL / Session.eval / eval text."""

from __future__ import annotations

import io

import pytest

from matfuse.errors import MatlabError
from matfuse.vm.compile_cache import CompileCache, identifiers_in
from matfuse.vm.session import Session


def _session() -> Session:
    return Session(stdout=io.StringIO(), stderr=io.StringIO())


def test_repeated_eval_compiles_once():
    s = _session()
    cache = s.interp.compile_cache
    s.eval("x = 0;")
    for _ in range(5):
        s.eval("x = x + 1;")
    assert s.get("x") == 5.0
    # "x = x + 1;" sees x as a variable every time: one miss, then hits.
    assert cache.hits == 4


def test_command_syntax_follows_workspace_variables():
    s = _session()
    s.eval("disp -1")                  # no variable disp: command syntax
    assert s.interp.out.getvalue().strip() == "-1"
    s.eval("x = 5;")
    s.eval("y = 1; x -1")             # x is a variable: an expression
    assert s.get("ans") == 4.0
    s.eval("clear x")
    with pytest.raises(MatlabError):
        s.eval("y = 1; x -1")         # same text, now command syntax: x is undefined


def test_eval_inside_loop_uses_cache():
    s = _session()
    s.eval("for i = 1:6, eval('z = i * 2;'); end")
    assert s.get("z") == 12.0
    assert s.interp.compile_cache.hits >= 4


def test_eval_with_outputs_is_cached_per_kind():
    s = _session()
    s.eval("a = 3; for i = 1:3, b(i) = eval('a + i'); end")
    assert s.get("b").tolist() == [[4.0, 5.0, 6.0]]
    s.eval("eval('a + 1')")            # same text without outputs: statement kind
    assert s.get("ans") == 4.0


def test_redefined_repl_functions_are_seen():
    s = _session()
    s.eval("function r = f(a), r = a + 1; end")
    s.eval("q = f(1);")
    assert s.get("q") == 2.0
    s.eval("function r = f(a), r = a + 10; end")
    s.eval("q = f(1);")
    assert s.get("q") == 11.0


def test_globals_change_the_key():
    s = _session()
    s.eval("g = 1;")
    s.eval("h = g;")
    s.eval("global g; g = 7;")
    s.eval("h = g;")
    assert s.get("h") == 7.0


def test_lru_capacity():
    cache = CompileCache(capacity=2)
    for text in ("a", "b", "c"):
        key, relevant, hit = cache.lookup("execute", text, None, 0, set(), {})
        assert hit is None
        cache.store(key, relevant, object())
    assert len(cache) == 2
    assert cache.lookup("execute", "a", None, 0, set(), {})[2] is None
    assert cache.lookup("execute", "c", None, 0, set(), {})[2] is not None


def test_identifiers_over_approximate():
    assert identifiers_in("x -1 % y\ns = 'z';") == {"x", "y", "s", "z"}
