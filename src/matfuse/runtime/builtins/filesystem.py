"""Files and folders: tempdir tempname fullfile fileparts isfile isfolder
delete mkdir rmdir."""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
import uuid
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime._matrixops import emit_warning
from matfuse.runtime.builtins._common import is_text, text_arg
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import CHAR_DTYPE, CellArray, MObject, char_array, to_str


def _text(s: str) -> np.ndarray:
    return char_array(s) if s else np.zeros((1, 0), dtype=CHAR_DTYPE)


@builtin("tempdir", category="files", nargin=(0, 0))
def tempdir() -> Any:
    """The system's temporary folder, with a trailing separator."""
    return char_array(os.path.join(tempfile.gettempdir(), ""))


@builtin("tempname", category="files", nargin=(0, 1))
def tempname(folder: Any = None) -> Any:
    """A unique name for a temporary file (nothing is created)."""
    base = tempfile.gettempdir() if folder is None else text_arg(folder, "tempname", "folder")
    return char_array(os.path.join(base, "tp" + uuid.uuid4().hex))


@builtin("fullfile", category="files", nargin=(1, None))
def fullfile(*parts: Any) -> Any:
    """Join folder and file names with '/' (repeated separators collapsed).
    A cell array of names among the parts gives a cell array of the same
    size, one joined name per element (the other parts are shared)."""
    cells = [p for p in parts if isinstance(p, CellArray)]
    if not cells:
        return _text(_join([text_arg(p, "fullfile", "input") for p in parts]))
    shape = cells[0].shape
    if any(c.data.size != cells[0].data.size for c in cells):
        raise MatlabError("MATLAB:fullfile:CellArraysOfDifferentSize",
                          "All cell array inputs must have the same number of elements.")
    columns = []
    for p in parts:
        if isinstance(p, CellArray):
            columns.append([text_arg(v, "fullfile", "input") for v in p.data.reshape(-1, order="F")])
        else:
            columns.append([text_arg(p, "fullfile", "input")] * cells[0].data.size)
    joined = [_join(list(names)) for names in zip(*columns)]
    return CellArray.from_list([_text(j) for j in joined], shape)


def _join(names: list[str]) -> str:
    names = [n for n in names if n]
    if not names:
        return ""
    joined = names[0]
    for n in names[1:]:
        joined = joined.rstrip("/") + "/" + n.lstrip("/") if joined else n
    while "//" in joined[1:]:
        joined = joined[0] + joined[1:].replace("//", "/")
    return joined


@builtin("fileparts", category="files", nargin=(1, 1), nargout=(0, 3), wants_nargout=True)
def fileparts(name: Any, nargout: int = 1) -> Any:
    """[folder, name, ext] of a file name."""
    text = text_arg(name, "fileparts", "input")
    folder, base = os.path.split(text)
    if folder == "" and text.startswith("/"):
        folder = "/"
    stem, ext = os.path.splitext(base)
    if base.startswith(".") and stem == base and ext == "":
        stem, ext = "", base
    outs = (_text(folder), _text(stem), _text(ext))
    return outs[:nargout] if nargout > 1 else outs[0]


@builtin("isfile", category="files", nargin=(1, 1))
def isfile(name: Any) -> Any:
    """True for an existing file."""
    return bool(is_text(name) and os.path.isfile(to_str(name)))


@builtin("isfolder", category="files", nargin=(1, 1))
def isfolder(name: Any) -> Any:
    """True for an existing folder."""
    return bool(is_text(name) and os.path.isdir(to_str(name)))


@builtin("delete", category="files", nargin=(1, None), nargout=(0, 0))
def delete(*names: Any) -> Any:
    """Delete files (wildcards allowed); a missing file is a warning.
    ``delete(h)`` deletes a handle object (later use is an invalid-handle
    error), graphics objects, or an object that supports it (``delete(gcp)``)."""
    if len(names) == 1 and getattr(names[0], "deleted", None) is False \
            and getattr(getattr(names[0], "cls", None), "is_handle", False):
        names[0].deleted = True
        return None
    for name in names:
        if hasattr(name, "delete_objects"):      # graphics handles (matfuse.graphics)
            name.delete_objects()
            continue
        if isinstance(name, MObject) and callable(getattr(name, "delete", None)):
            name.delete()
            continue
        if type(name) is np.ndarray and name.size == 0 and name.dtype != CHAR_DTYPE:
            continue   # no object: delete(gcp('nocreate')) without a pool
        pattern = text_arg(name, "delete", "file name")
        hits = glob.glob(pattern) if any(c in pattern for c in "*?[") else (
            [pattern] if os.path.exists(pattern) else [])
        if not hits:
            emit_warning("MATLAB:DELETE:FileNotFound", f"File '{pattern}' not found.")
        for hit in hits:
            if os.path.isdir(hit):
                raise MatlabError("MATLAB:DELETE:Permission",
                                  f"'{hit}' is a folder. Use rmdir to remove folders.")
            os.remove(hit)
    return None


@builtin("mkdir", category="files", nargin=(1, 2), nargout=(0, 3), wants_nargout=True)
def mkdir(parent: Any, child: Any = None, nargout: int = 0) -> Any:
    """Create a folder: [status, msg, msgID] = mkdir(folder)."""
    path = text_arg(parent, "mkdir", "folder")
    if child is not None:
        path = os.path.join(path, text_arg(child, "mkdir", "folder"))
    if os.path.isdir(path):
        msg, ident = "Directory already exists.", "MATLAB:MKDIR:DirectoryExists"
        if nargout == 0:
            emit_warning(ident, msg)
            return None
        outs = (True, char_array(msg), char_array(ident))
        return outs[:nargout] if nargout > 1 else outs[0]
    try:
        os.makedirs(path)
    except OSError as err:
        if nargout == 0:
            raise MatlabError("MATLAB:MKDIR:OSError", err.strerror or "Cannot create folder.") from None
        outs = (False, char_array(err.strerror or "error"), char_array("MATLAB:MKDIR:OSError"))
        return outs[:nargout] if nargout > 1 else outs[0]
    empty = np.zeros((0, 0), dtype=CHAR_DTYPE)
    outs = (True, empty, empty)
    return None if nargout == 0 else (outs[:nargout] if nargout > 1 else outs[0])


@builtin("rmdir", category="files", nargin=(1, 2), nargout=(0, 3), wants_nargout=True)
def rmdir(folder: Any, option: Any = None, nargout: int = 0) -> Any:
    """Remove a folder; rmdir(folder, 's') removes its contents too."""
    path = text_arg(folder, "rmdir", "folder")
    recursive = option is not None and is_text(option) and to_str(option).lower() == "s"
    try:
        if recursive:
            shutil.rmtree(path)
        else:
            os.rmdir(path)
    except OSError as err:
        msg = f"{path} is not a folder or could not be removed: {err.strerror}."
        if nargout == 0:
            raise MatlabError("MATLAB:RMDIR:NoDirectoriesRemoved", msg) from None
        outs = (False, char_array(msg), char_array("MATLAB:RMDIR:NoDirectoriesRemoved"))
        return outs[:nargout] if nargout > 1 else outs[0]
    empty = np.zeros((0, 0), dtype=CHAR_DTYPE)
    outs = (True, empty, empty)
    return None if nargout == 0 else (outs[:nargout] if nargout > 1 else outs[0])
