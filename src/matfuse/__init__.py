"""matfuse: run MATLAB-language programs in Python (array work on GPUs)."""

from __future__ import annotations

from typing import Any

from matfuse._version import __version__

__all__ = ["Session", "eval", "help_text", "__version__"]


def _install_device_router() -> None:
    """The runtime's device router is the acceleration layer's (loaded on
    the first device operation: ``runtime.device_router``)."""
    from matfuse.accelerate.router.entry import install

    install()


def _install_auto_offload() -> None:
    """The auto-offload hooks, installed on the first builtin call or
    operator on arrays: only the planner and the options load (the router,
    with its fusion engine, loads with the first device operation)."""
    from matfuse.accelerate.planner.bootstrap import install_auto_offload

    install_auto_offload()


def _install_parfor_compiler() -> None:
    """The VM's parfor compiler is the parallel layer's (loaded when the
    first parfor statement is compiled: ``vm.parfor_compiler``)."""
    import matfuse.parallel.loop  # noqa: F401  (registers itself on import)


def _install_sparse_indexing() -> None:
    """Sparse indexing uses the assignment machinery, which imports the
    sparse class (for concatenation): it installs itself on import."""
    import matfuse.runtime.sparse_indexing  # noqa: F401  (installs itself on import)


def _quiet_idle_blas_threads() -> None:
    """Before NumPy loads: OpenBLAS's idle threads sleep soon
    (``cli.blas_threads``, the process-level settings' place)."""
    from matfuse.cli.blas_threads import quiet_idle_blas_threads

    quiet_idle_blas_threads()


def _compose() -> None:
    """Wire the layers: the runtime calls the acceleration layer only
    through the router registered here, and the VM compiles parfor through
    the compiler registered here (neither imports the layer above it)."""
    from matfuse.runtime.device_router import set_router_loader
    from matfuse.runtime.dispatcher import set_offload_installer
    from matfuse.vm.parfor_compiler import set_parfor_loader

    from matfuse.runtime.sparse_matrix import SparseMatrix

    set_router_loader(_install_device_router)
    set_offload_installer(_install_auto_offload)
    set_parfor_loader(_install_parfor_compiler)
    SparseMatrix.indexing_loader = staticmethod(_install_sparse_indexing)


def eval(code: str, **variables: Any) -> Any:  # noqa: A001 - MATLAB's name, on purpose
    """Run MATLAB ``code`` in a fresh session with ``variables`` set; returns
    ``ans`` (converted to Python) when the code set it, else None.

        matfuse.eval("x + 1;", x=2)          # 3.0
        matfuse.eval("s.a = v(end);", v=[1, 2])
    """
    from matfuse.vm.session import eval_code

    return eval_code(code, **variables)


def help_text(name: str | None = None) -> str:
    """What MATLAB's ``help name`` prints (``help`` alone: the topics)."""
    from matfuse.runtime.help_text import help_text as text

    return text(name)


def __getattr__(name: str) -> Any:
    # Lazy so ``import matfuse`` stays cheap (and free of import cycles).
    if name == "Session":
        from matfuse.vm.session import Session

        return Session
    raise AttributeError(name)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext matfuse``: the ``%matlab``/``%%matlab`` magics (matfuse.jupyter.magic)."""
    from matfuse.jupyter.magic import load_ipython_extension as load

    load(ipython)


_quiet_idle_blas_threads()
_compose()
