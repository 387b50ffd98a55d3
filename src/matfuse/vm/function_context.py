"""What the compiler knows about the function being compiled: its file
scope and how its global, persistent and shared (nested-function) names are
read and written. Expression, statement, class and argument compilers all
take one."""

from __future__ import annotations

from typing import Any, Callable

from matfuse.vm import _calls
from matfuse.vm.functions import FileScope


class FunctionContext:
    """What the compiler knows about the function being compiled."""

    def __init__(self, scope: FileScope | None, global_names: set[str],
                 persistents: dict[str, Any] | None):
        self.scope = scope
        self.global_names = set(global_names)
        self.persistents = persistents
        self.persistent_names: set[str] = set()
        # Nested functions: names shared with the parent function's workspace.
        self.shared_names: set[str] = set()

    def special_reader(self, name: str) -> Callable[[Any], Any] | None:
        """Reader for global/persistent/shared names (None for ordinary variables)."""
        if name in self.shared_names:
            def read_shared(fr: Any) -> Any:
                return fr.parent.get(name, _calls.MISSING)
            return read_shared
        if name in self.persistent_names and self.persistents is not None:
            store = self.persistents

            def read_persistent(fr: Any) -> Any:
                return store.get(name, _calls.MISSING)
            return read_persistent
        if name in self.global_names:
            def read_global(fr: Any) -> Any:
                if name in fr.global_names:
                    return fr.interp.globals[name]
                return fr.get(name, _calls.MISSING)
            return read_global
        return None

    def special_writer(self, name: str) -> Callable[[Any, Any], None] | None:
        if name in self.shared_names:
            def write_shared(fr: Any, value: Any) -> None:
                fr.parent[name] = value
            return write_shared
        if name in self.persistent_names and self.persistents is not None:
            store = self.persistents

            def write_persistent(fr: Any, value: Any) -> None:
                store[name] = value
            return write_persistent
        if name in self.global_names:
            def write_global(fr: Any, value: Any) -> None:
                if name in fr.global_names:
                    fr.interp.globals[name] = value
                else:
                    fr[name] = value
            return write_global
        return None
