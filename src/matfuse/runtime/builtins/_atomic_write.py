"""Write a file so that it is either fully replaced or left untouched.

``save``, ``writematrix`` and the other writers build the new content in a
temporary file next to the target (same folder, so the final ``os.replace``
is an atomic rename on one file system), flush and fsync it, then rename it
over the target.  Any failure on the way (disk full, read-only folder,
an encoder error) removes the temporary file and leaves the old file as it
was.  The temporary name is unique (``O_EXCL`` with a random suffix) and is
never a symlink we follow.
"""

from __future__ import annotations

import os
import secrets
from typing import BinaryIO, Callable

from matfuse.errors import MatlabError


def _create_temp(target: str) -> tuple[str, int]:
    folder = os.path.dirname(os.path.abspath(target))
    base = os.path.basename(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        temp = os.path.join(folder, f".{base}.{secrets.token_hex(6)}.tmp")
        try:
            return temp, os.open(temp, flags, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name next to {target}")


def _keep_mode(target: str, temp: str) -> None:
    """The replacement keeps the permission bits of the file it replaces."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        return
    os.chmod(temp, mode)


def _fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass   # some file systems cannot sync a directory; the rename is done
    finally:
        os.close(fd)


def replace_file(target: str, write: Callable[[BinaryIO], None]) -> None:
    """Write ``target`` atomically: ``write`` receives a binary file object
    open on a temporary file in the same folder.  OSError propagates (the
    caller turns it into its MATLAB error); the old file is untouched."""
    temp, fd = _create_temp(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        _keep_mode(target, temp)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    _fsync_folder(os.path.dirname(os.path.abspath(target)))


def replace_file_by_path(target: str, write: Callable[[str], None]) -> None:
    """Like ``replace_file`` for writers that need a path (h5py): ``write``
    creates the temporary file at the path it is given."""
    temp, fd = _create_temp(target)
    os.close(fd)
    try:
        write(temp)
        with open(temp, "rb+") as fh:
            os.fsync(fh.fileno())
        _keep_mode(target, temp)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    _fsync_folder(os.path.dirname(os.path.abspath(target)))


def write_error(fn: str, filename: str, err: OSError) -> MatlabError:
    """MATLAB's error for a file that could not be written."""
    reason = err.strerror or "cannot write file"
    return MatlabError(f"MATLAB:{fn}:couldNotWriteFile", f"Unable to write file {filename}: {reason}.")
