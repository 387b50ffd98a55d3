"""Builtin declarations.

A builtin is one declaration: name, argument counts, category, CPU
implementation, docstring and, where it has them, a GPU spec and a fusion
template (cupy ``create_ufunc``-style tables)::

    @builtin("exp", category="elementwise", nargin=(1, 1),
             gpu=GpuSpec(kind="elementwise", hook="elem_unary", op="exp"),
             fusion="exp")
    def exp(x):
        '''Exponential, elementwise.'''
        ...

Calling convention of ``impl``: positional MATLAB values; ``ctx`` first when
``needs_ctx``; keyword ``nargout`` when ``wants_nargout``. It returns one
value, or a tuple of values for several outputs (at least ``max(1, nargout)``
of them when more than one is requested).

Modules under ``matfuse.runtime.builtins`` register their declarations at
import time. They are imported lazily: ``lookup(name)`` imports the modules
that ``builtin_index`` lists for ``name`` (start-up loads none of them);
``load_all()`` imports every one (``help``, completion, docs).
``python3 -m matfuse.runtime.builtin_index_build`` regenerates the index.
"""

from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from matfuse.runtime.builtin_index import BUILTIN_MODULES, EARLIER_REGISTRANTS, OVERLOAD_MODULES


@dataclass(frozen=True, slots=True)
class GpuSpec:
    """How a builtin runs on a device.

    Attributes:
        kind: ``elementwise``, ``reduction``, ``scan``, ``construction``,
            ``matmul``, ``indexing``, ``signal``, ``sort`` ... (the planner's
            cost category).
        hook: the provider hook implementing it (``elem_unary``, ``reduce``).
        op: the operation name passed to that hook (``exp``, ``sum``).
        returns_gpu: whether MATLAB returns a gpuArray when an input is one.
    """

    kind: str
    hook: str | None = None
    op: str | None = None
    returns_gpu: bool = True


@dataclass(slots=True)
class Builtin:
    name: str
    impl: Callable[..., Any]
    category: str
    min_args: int = 0
    max_args: int | None = None       # None: any number (varargin)
    max_out: int | None = 1           # None: any number (varargout)
    needs_ctx: bool = False
    wants_nargout: bool = False
    sink: bool = False                # host sink: gathers device inputs
    gpu: GpuSpec | None = None
    fusion: Any = None                # fusion template (see matfuse.accelerate.fusion)
    device_impl: Callable[..., Any] | None = None
    doc: str = ""
    status: str = "implemented"
    aliases: tuple[str, ...] = field(default_factory=tuple)


BUILTINS: dict[str, Builtin] = {}

#: Registrations that can change what a name resolves to: every one except
#: those of the builtin modules loaded on demand (a lookup loads all the
#: modules registering its name first, so loading more never changes an
#: earlier lookup's answer). Call-site caches compare it (``FunctionTable``).
REGISTRATIONS = [0]


def builtin(name: str, *, category: str, nargin: tuple[int, int | None] = (0, None),
            nargout: tuple[int, int | None] = (0, 1), needs_ctx: bool = False,
            wants_nargout: bool = False, sink: bool = False,
            gpu: GpuSpec | None = None, fusion: Any = None,
            aliases: tuple[str, ...] = ()) -> Callable[[Callable], Callable]:
    """Declare a builtin; decorates its CPU implementation (returned unchanged)."""

    def register(fn: Callable) -> Callable:
        decl = Builtin(
            name=name, impl=fn, category=category,
            min_args=nargin[0], max_args=nargin[1], max_out=nargout[1],
            needs_ctx=needs_ctx, wants_nargout=wants_nargout, sink=sink,
            gpu=gpu, fusion=fusion, doc=(fn.__doc__ or "").strip(),
            aliases=tuple(aliases),
        )
        BUILTINS[name] = decl
        for alias in aliases:
            BUILTINS[alias] = decl
        if not _loading:
            REGISTRATIONS[0] += 1
        return fn

    return register


def lookup(name: str) -> Builtin | None:
    """The declaration of builtin ``name`` (its modules imported on first use), or None."""
    if _loaded or name in _resolved:
        return BUILTINS.get(name)
    with _lock:
        if name not in _resolved:
            for module in BUILTIN_MODULES.get(name, ()):
                _import_module(module)
            _resolved.add(name)
    return BUILTINS.get(name)


# Names whose modules are imported, modules imported (or being imported by
# this thread: a module's own lookups while it loads do not import it again).
# One lock: another thread never sees a name resolved before its modules ran.
_resolved: set[str] = set()
_imported: set[str] = set()
_lock = threading.RLock()
_loaded = False
# Builtin modules being imported by ``_import_module`` (under ``_lock``).
_loading = 0


def _import_module(module: str) -> None:
    """Import one builtin module, after the modules that register a name it
    also registers earlier in ``load_all``'s order, so the later declaration
    wins exactly as when every module is loaded."""
    global _loading
    if module in _imported:
        return
    _imported.add(module)
    _loading += 1
    try:
        for earlier in EARLIER_REGISTRANTS.get(module, ()):
            _import_module(earlier)
        importlib.import_module(module)
    except BaseException:
        _imported.discard(module)   # a failed import is tried again, as Python's is
        raise
    finally:
        _loading -= 1


def load_overloads() -> None:
    """Import the modules that register methods of the built-in value
    classes (``char``, ``sort``... of a datetime; ``nnz``, ``find``... of a
    sparse matrix), so method dispatch sees them (idempotent)."""
    global _overloads_loaded
    if _overloads_loaded or _loaded:
        return
    with _lock:
        for module in OVERLOAD_MODULES:
            _import_module(module)
        _overloads_loaded = True


_overloads_loaded = False


def load_all() -> None:
    """Import every module of ``matfuse.runtime.builtins`` (idempotent)."""
    global _loaded
    if _loaded:
        return
    with _lock:
        for module in builtin_module_names():
            _import_module(module)
        _loaded = True


def builtin_module_names() -> list[str]:
    """Every module of ``matfuse.runtime.builtins``, in ``load_all``'s order."""
    import pkgutil  # only here: the start path never lists the package

    package = importlib.import_module("matfuse.runtime.builtins")
    return sorted(info.name for info in
                  pkgutil.walk_packages(package.__path__, package.__name__ + "."))


class CallContext(Protocol):
    """What a builtin declared with ``needs_ctx`` may use of the interpreter."""

    def call(self, fn: Any, args: list[Any], nargout: int) -> list[Any]:
        """Call a function handle, or a function by name (``str``)."""

    def function_caller(self, fn: Any) -> Callable[[list[Any], int], list[Any]]:
        """``caller(args, nargout)``: ``call(fn, args, nargout)`` for calling
        ``fn`` many times (cellfun, arrayfun); what it calls is looked up once."""

    def write(self, text: str) -> None:
        """Write to MATLAB's standard output (the command window)."""

    def write_err(self, text: str) -> None:
        """Write to standard error (warnings)."""

    @property
    def display_format(self) -> str:
        """``short`` or ``long`` (and the other ``format`` modes)."""

    def get_var(self, name: str) -> Any:
        """A variable of the caller's workspace, or None when undefined."""

    def set_var(self, name: str, value: Any) -> None:
        """Create or overwrite a variable in the caller's workspace."""

    def variable_names(self) -> list[str]:
        """Sorted names of the caller's variables (globals declared there included)."""

    @property
    def interp(self) -> Any:
        """The interpreter itself (``matfuse.vm.interpreter.Interpreter``)."""
