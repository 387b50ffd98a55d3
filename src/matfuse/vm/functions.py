"""Compiled functions, file scopes and MATLAB's function lookup order.

Lookup of a name that is not a variable: local (and nested) functions of the
current file, then ``NAME.m`` in the running file's folder, the current folder
and the ``addpath`` folders, then builtins. Parsed and compiled ``.m`` files
are cached by path and mtime; call sites cache their resolution until the
interpreter's ``generation`` changes (addpath, rmpath, clear functions, cd).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from matfuse.runtime.registry import Builtin, lookup as lookup_builtin


@dataclass(eq=False)
class CompiledFunction:
    """A user function compiled to closures (see ``compiler.compile_function``)."""

    name: str
    params: list[str]            # without a trailing ``varargin``
    outputs: list[str]           # without a trailing ``varargout``
    varargin: bool
    varargout: bool
    body: Any                    # compiler.CompiledBlock
    file: str | None
    scope: "FileScope | None" = None
    persistents: dict[str, Any] = field(default_factory=dict)
    parent: "CompiledFunction | None" = None   # the enclosing function of a nested one

    @property
    def nargin_declared(self) -> int:
        """MATLAB's ``nargin(fn)``: negative when the function takes varargin."""
        n = len(self.params)
        return -(n + 1) if self.varargin else n

    @property
    def nargout_declared(self) -> int:
        n = len(self.outputs)
        return -(n + 1) if self.varargout else n


@dataclass(eq=False)
class FileScope:
    """The functions of one file (or REPL/eval text): what ``@name`` and calls
    resolve to before the path is searched."""

    file: str | None
    functions: dict[str, CompiledFunction] = field(default_factory=dict)
    script: Any = None           # compiler.CompiledBlock of a script file's body
    primary: CompiledFunction | None = None

    @property
    def folder(self) -> str | None:
        return os.path.dirname(os.path.abspath(self.file)) if self.file else None


class ScriptTarget:
    """A script file called by name: runs in the caller's workspace."""

    __slots__ = ("scope",)

    def __init__(self, scope: FileScope):
        self.scope = scope


def mfile_in(folder: str, name: str) -> str | None:
    path = os.path.join(folder, name + ".m")
    return path if os.path.isfile(path) else None


class FunctionTable:
    """Path list plus the parsed-file cache of one interpreter."""

    def __init__(self, loader: Any):
        # loader(path) -> FileScope; it parses and compiles a file.
        self._loader = loader
        self.path: list[str] = []
        self._files: dict[str, tuple[float, FileScope]] = {}

    def load_file(self, path: str) -> FileScope:
        """Parsed and compiled file, from cache when its mtime is unchanged."""
        path = os.path.abspath(path)
        mtime = os.path.getmtime(path)
        hit = self._files.get(path)
        if hit is not None and hit[0] == mtime:
            return hit[1]
        scope = self._loader(path)
        self._files[path] = (mtime, scope)
        return scope

    def clear_cache(self) -> None:
        self._files.clear()

    def find_file(self, name: str, folder: str | None) -> str | None:
        """``name.m`` in the running file's folder, the current folder, the path."""
        if not name.isidentifier():
            return None
        folders: list[str] = []
        if folder:
            folders.append(folder)
        folders.append(os.getcwd())
        folders.extend(self.path)
        for f in folders:
            found = mfile_in(f, name)
            if found:
                return found
        return None

    def resolve(self, name: str, scope: FileScope | None) -> Any:
        """The call target for ``name``: a CompiledFunction, ScriptTarget, Builtin or None."""
        if scope is not None:
            local = scope.functions.get(name)
            if local is not None:
                return local
        path = self.find_file(name, scope.folder if scope is not None else None)
        if path is not None:
            target = self.load_file(path)
            if target.primary is not None:
                return target.primary
            return ScriptTarget(target)
        decl: Builtin | None = lookup_builtin(name)
        return decl
