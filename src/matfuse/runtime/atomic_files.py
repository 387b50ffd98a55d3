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
from typing import Any, Callable

Warn = Callable[[str], None]


def warn_on_stderr(text: str) -> None:
    """Default warning sink: ``Warning: text`` on stderr."""
    sys.stderr.write(f"Warning: {text}\n")


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically.

    Raises OSError (disk full, permission, a folder in the way) with the old
    file untouched and no temporary file left behind.
    """
    target = Path(path)
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.is_dir() and not target.is_symlink():
            raise IsADirectoryError(f"{target} is a folder")
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


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
