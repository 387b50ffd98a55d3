"""The VM compiles ``parfor`` through the hook the parallel layer registers
(``vm.parfor_compiler``): loaded on first use, a clear error without it."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from matfuse.lang.parser import parse
from matfuse.vm import parfor_compiler


def _parfor_node():
    return parse("parfor i = 1:2\n  x = i;\nend\n").body[0]


def test_the_parallel_layer_is_registered_at_start_up():
    import matfuse.parallel.loop as loop

    node = _parfor_node()
    statement = parfor_compiler.compile_parfor(node, lambda e: (lambda fr: 1.0), None)
    assert isinstance(statement, loop.ParforStatement)


def test_the_loader_runs_once_when_no_compiler_is_registered(monkeypatch):
    calls = []

    def compiler(node, value_compiler, scope):
        return "compiled"

    def loader():
        calls.append(1)
        parfor_compiler.register_parfor_compiler(compiler)

    monkeypatch.setattr(parfor_compiler, "_compiler", None)
    monkeypatch.setattr(parfor_compiler, "_loader", loader)
    assert parfor_compiler.compile_parfor(_parfor_node(), None, None) == "compiled"
    assert parfor_compiler.compile_parfor(_parfor_node(), None, None) == "compiled"
    assert calls == [1]


def test_without_the_parallel_layer_parfor_is_a_matlab_error(monkeypatch):
    monkeypatch.setattr(parfor_compiler, "_compiler", None)
    monkeypatch.setattr(parfor_compiler, "_loader", None)
    with pytest.raises(MatlabError) as info:
        parfor_compiler.compile_parfor(_parfor_node(), None, None)
    assert info.value.identifier == "matfuse:parallel:unavailable"
