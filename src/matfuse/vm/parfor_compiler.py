"""How the VM compiles ``parfor`` statements without importing
``matfuse.parallel``, which sits above the VM (its workers run the VM and
it compiles loop bodies with the VM's compiler).

``matfuse.parallel.loop`` implements :data:`ParforCompiler` and registers it
with :func:`register_parfor_compiler`; the top-level package
(``matfuse/__init__.py``) names that module as the loader, so the first
``parfor`` statement compiled in a process imports it.
"""

from __future__ import annotations

from typing import Any, Callable

from matfuse.errors import MatlabError
from matfuse.lang import ast

#: ``compile(node, value_compiler, scope) -> statement``: the ``parfor``
#: statement ``node`` compiled (``value_compiler`` compiles its range and
#: worker-limit expressions; ``statement(frame)`` runs the loop).
ParforCompiler = Callable[[ast.For, Callable[[ast.Expr], Callable[[Any], Any]], Any],
                          Callable[[Any], Any]]

_compiler: ParforCompiler | None = None
_loader: Callable[[], None] | None = None


def register_parfor_compiler(compiler: ParforCompiler) -> None:
    """Make ``compiler`` the one :func:`compile_parfor` calls."""
    global _compiler
    _compiler = compiler


def set_parfor_loader(loader: Callable[[], None]) -> None:
    """``loader()`` imports the module that registers the compiler; called
    when the first ``parfor`` statement is compiled."""
    global _loader
    _loader = loader


def compile_parfor(node: ast.For, value_compiler: Callable[[ast.Expr], Callable[[Any], Any]],
                   scope: Any) -> Callable[[Any], Any]:
    """The compiled ``parfor`` statement ``node`` (loading the compiler on
    first use)."""
    if _compiler is None and _loader is not None:
        _loader()
    if _compiler is None:
        raise MatlabError("matfuse:parallel:unavailable",
                          "parfor needs the parallel layer (matfuse.parallel), which is "
                          "not loaded.", node.span)
    return _compiler(node, value_compiler, scope)
