"""Compiled functions, file scopes and MATLAB's function lookup order.

Lookup of a name that is not a variable: local (and nested) functions of the
current file, then ``NAME.m`` in the running file's folder, the current folder
and the ``addpath`` folders, then builtins. Parsed and compiled ``.m`` files
are cached by path and mtime; call sites cache their resolution until the
interpreter's ``generation`` changes (addpath, rmpath, clear functions, cd).
"""

from __future__ import annotations

import os
from typing import Any

from matfuse.runtime.registry import REGISTRATIONS, Builtin, lookup as lookup_builtin


class CompiledFunction:
    """A user function compiled to closures (see ``compiler.compile_function``).

    A plain class (no dataclass): the start path builds its classes without
    the dataclass machinery's code generation."""

    def __init__(self, name: str, params: list[str], outputs: list[str], varargin: bool,
                 varargout: bool, body: Any, file: str | None,
                 scope: FileScope | None = None, persistents: dict[str, Any] | None = None,
                 parent: CompiledFunction | None = None, call_plan: Any = None):
        self.name = name
        self.params = params            # without a trailing ``varargin``
        self.outputs = outputs          # without a trailing ``varargout``
        self.varargin = varargin
        self.varargout = varargout
        self.body = body                # compiler.CompiledBlock
        self.file = file
        self.scope = scope
        self.persistents = {} if persistents is None else persistents
        self.parent = parent            # the enclosing function of a nested one
        # How a call enters it (``call_plan.function_plan``), made on the first call.
        self.call_plan = call_plan

    def __repr__(self) -> str:
        return f"CompiledFunction(name={self.name!r}, file={self.file!r})"

    @property
    def nargin_declared(self) -> int:
        """MATLAB's ``nargin(fn)``: negative when the function takes varargin."""
        n = len(self.params)
        return -(n + 1) if self.varargin else n

    @property
    def nargout_declared(self) -> int:
        n = len(self.outputs)
        return -(n + 1) if self.varargout else n


class FileScope:
    """The functions of one file (or REPL/eval text): what ``@name`` and calls
    resolve to before the path is searched."""

    def __init__(self, file: str | None, functions: dict[str, CompiledFunction] | None = None,
                 script: Any = None, primary: CompiledFunction | None = None):
        self.file = file
        self.functions = {} if functions is None else functions
        self.script = script            # compiler.CompiledBlock of a script file's body
        self.primary = primary

    def __repr__(self) -> str:
        return f"FileScope(file={self.file!r}, functions={list(self.functions)!r})"

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


def _mfile_names(folder: str) -> frozenset[str]:
    """Names of the ``.m`` files in ``folder`` (empty if it cannot be read),
    plus ``@Name`` for each class folder."""
    try:
        with os.scandir(folder) as entries:
            return frozenset(
                e.name[:-2] if e.name.endswith(".m") else e.name for e in entries
                if (e.name.endswith(".m") and e.is_file())
                or (e.name.startswith("@") and e.is_dir()))
    except OSError:
        return frozenset()


class FunctionTable:
    """Path list plus the parsed-file cache of one interpreter."""

    def __init__(self, loader: Any):
        # loader(path) -> FileScope; it parses and compiles a file.
        self._loader = loader
        self.path: list[str] = []
        self._files: dict[str, tuple[float, FileScope]] = {}
        # Folder listings, re-read when the folder's mtime changes (a file
        # added, removed or renamed); checked once per top-level command.
        self._listings: dict[str, tuple[int, frozenset[str]]] = {}
        self._checked: dict[str, frozenset[str]] = {}
        self._cwd: str | None = None
        self._path_seen: tuple[str, ...] = ()
        self._registrations = 0

    def begin_generation(self) -> None:
        """A new top-level command (or path/folder change): folders are
        checked again, once each, when a name is next resolved."""
        self._checked.clear()
        self._cwd = None
        self._path_seen = tuple(self.path)
        self._registrations = REGISTRATIONS[0]

    def unchanged(self) -> bool:
        """Whether every resolution made since ``begin_generation`` would
        still give the same target: same current folder and path, the
        folders consulted list the same ``.m`` files (folder mtime), the
        loaded files are unmodified and no builtin was registered (builtin
        modules loaded on demand do not count: ``registry.REGISTRATIONS``).
        Lets a new top-level command keep the call sites' cached resolutions."""
        if tuple(self.path) != self._path_seen or REGISTRATIONS[0] != self._registrations:
            return False
        if self._cwd is not None and os.getcwd() != self._cwd:
            return False
        for folder in self._checked:
            try:
                mtime = os.stat(folder).st_mtime_ns
            except OSError:
                if folder in self._listings:
                    return False
                continue
            cached = self._listings.get(folder)
            if cached is None or cached[0] != mtime:
                return False
        for path, (mtime_s, _) in self._files.items():
            try:
                if os.path.getmtime(path) != mtime_s:
                    return False
            except OSError:
                return False
        return True

    def _names_in(self, folder: str) -> frozenset[str]:
        names = self._checked.get(folder)
        if names is not None:
            return names
        try:
            mtime = os.stat(folder).st_mtime_ns
        except OSError:
            names = frozenset()
        else:
            cached = self._listings.get(folder)
            if cached is not None and cached[0] == mtime:
                names = cached[1]
            else:
                names = _mfile_names(folder)
                self._listings[folder] = (mtime, names)
        self._checked[folder] = names
        return names

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
        if self._cwd is None:
            self._cwd = os.getcwd()
        folders: list[str] = []
        if folder:
            folders.append(folder)
        folders.append(self._cwd)
        folders.extend(self.path)
        for f in folders:
            names = self._names_in(f)
            if name in names:
                return os.path.join(f, name + ".m")
            if "@" + name in names:
                # a class folder: @Name/Name.m (its other files are methods)
                path = os.path.join(f, "@" + name, name + ".m")
                if os.path.isfile(path):
                    return path
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
