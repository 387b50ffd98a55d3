"""Atomic writes and defensive reads for files matfuse keeps on disk.

Writes go to a uniquely named temporary file in the destination's folder,
are flushed and synced, then renamed over the destination with
``os.replace``: a reader sees the old file or the new one, never a torn one,
and a failed write (disk full, read-only folder) leaves the old file intact.
``os.replace`` renames over a symlink rather than writing through it, so a
planted link cannot redirect the write.

Reads open without blocking and check the file is a regular file before
reading: a FIFO, a folder or a device in place of a cache file is skipped
with a warning instead of hanging or raising.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, Callable

Warn = Callable[[str], None]


def warn_on_stderr(text: str) -> None:
    """Default warning sink: ``Warning: text`` on stderr."""
    sys.stderr.write(f"Warning: {text}\n")


def _create_temp(target: str) -> tuple[str, int]:
    """A new, uniquely named temporary file beside ``target`` (never a
    followed symlink: ``O_EXCL``)."""
    folder = os.path.dirname(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    return temp, fd


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


def _install(temp: str, target: str) -> None:
    if os.path.isdir(target) and not os.path.islink(target):
        raise IsADirectoryError(f"{target} is a folder")
    _keep_mode(target, temp)
    os.replace(temp, target)
    _fsync_folder(os.path.dirname(os.path.abspath(target)))


def _discard(temp: str) -> None:
    try:
        os.unlink(temp)
    except OSError:
        pass


def replace_file(path: str | os.PathLike[str], write: Callable[[BinaryIO], None]) -> None:
    """Write ``path`` atomically: ``write`` receives a binary file object open
    on a temporary file in the same folder. OSError propagates (the caller
    turns it into its MATLAB error) with the old file untouched and no
    temporary file left behind."""
    target = os.fspath(path)
    temp, fd = _create_temp(target)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        _install(temp, target)
    except BaseException:
        _discard(temp)
        raise


def replace_file_by_path(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Like :func:`replace_file` for writers that need a path (h5py):
    ``write`` creates the temporary file at the path it is given."""
    target = os.fspath(path)
    temp, fd = _create_temp(target)
    os.close(fd)
    try:
        write(temp)
        with open(temp, "rb+") as fh:
            os.fsync(fh.fileno())
        _install(temp, target)
    except BaseException:
        _discard(temp)
        raise


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (see :func:`replace_file`)."""
    replace_file(path, lambda fh: fh.write(data))


def write_text_atomic(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """:func:`write_bytes_atomic` of ``text`` encoded with ``encoding``."""
    write_bytes_atomic(path, text.encode(encoding))


def read_bytes_safe(path: str | os.PathLike[str], warn: Warn | None = warn_on_stderr,
                    max_bytes: int = 64 << 20) -> bytes | None:
    """Contents of the regular file ``path``, or None.

    None, silently, when the file does not exist; None with a warning when it
    is not a regular file (FIFO, folder, device), is larger than
    ``max_bytes`` or cannot be read.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        _say(warn, f"skipping {path}: it is a folder, not a file")
        return None
    except OSError as why:
        _say(warn, f"cannot read {path}: {why.strerror or why}")
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            _say(warn, f"skipping {path}: not a regular file")
            return None
        if info.st_size > max_bytes:
            _say(warn, f"skipping {path}: larger than {max_bytes} bytes")
            return None
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as why:
        _say(warn, f"cannot read {path}: {why.strerror or why}")
        return None
    finally:
        os.close(fd)


def read_text_safe(path: str | os.PathLike[str], warn: Warn | None = warn_on_stderr,
                   encoding: str = "utf-8") -> str | None:
    """:func:`read_bytes_safe` decoded; None with a warning when not ``encoding``."""
    data = read_bytes_safe(path, warn)
    if data is None:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        _say(warn, f"skipping {path}: not {encoding} text")
        return None


def load_json_safe(path: str | os.PathLike[str], warn: Warn | None = warn_on_stderr) -> Any:
    """The JSON value stored in ``path``, or None (missing, unreadable,
    malformed or nested too deeply to parse; warned about except missing)."""
    text = read_text_safe(path, warn)
    if text is None:
        return None
    return parse_json_safe(text, str(path), warn)


def parse_json_safe(text: str, where: str, warn: Warn | None = warn_on_stderr) -> Any:
    """``json.loads(text)`` or None with a warning naming ``where``."""
    try:
        return json.loads(text)
    except ValueError as why:
        _say(warn, f"ignoring corrupt {where}: {why}")
    except RecursionError:
        _say(warn, f"ignoring corrupt {where}: nested too deeply")
    return None


def _say(warn: Warn | None, text: str) -> None:
    if warn is not None:
        warn(text)
