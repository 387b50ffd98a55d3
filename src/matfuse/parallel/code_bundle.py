"""Function files and the path, shipped with a parallel job.

A job carries the ``.m`` files of the folders the client resolves names in
(the running file's folder, the current folder, the ``addpath`` folders),
so workers on other machines call the same functions. Workers write a
bundle once, into a folder named by its content hash, and put its folders
on their path in the client's order.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass

# Larger code folders than this are not shipped: workers then read the
# client's folders directly (a shared file system, as on a local cluster).
MAX_BUNDLE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class CodeBundle:
    """``folders``: (client folder, {file name: text}) in lookup order;
    ``file``: the client path of the running file (or None); ``key``: hash."""

    folders: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    file: str | None
    key: str


# Folder -> (its .m files' names, sizes and times, their texts): a parfor
# re-reads only folders whose files changed.
_FOLDER_CACHE: dict[str, tuple[tuple, tuple[tuple[str, str], ...]]] = {}


def _read_folder(folder: str) -> tuple[tuple[str, str], ...] | None:
    try:
        entries = sorted((e.name, e.stat()) for e in os.scandir(folder)
                         if e.name.endswith(".m") and e.is_file())
    except OSError:
        return None
    signature = tuple((name, st.st_size, st.st_mtime_ns) for name, st in entries)
    cached = _FOLDER_CACHE.get(folder)
    if cached is not None and cached[0] == signature:
        return cached[1]
    files = []
    for name, _ in entries:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                files.append((name, fh.read()))
        except (OSError, UnicodeDecodeError):
            continue
    texts = tuple(files)
    _FOLDER_CACHE[folder] = (signature, texts)
    return texts


def make_bundle(file: str | None, path: list[str]) -> CodeBundle:
    """The bundle for code running in ``file`` with the interpreter's ``path``."""
    folders: list[str] = []
    if file:
        folders.append(os.path.dirname(os.path.abspath(file)))
    folders.append(os.getcwd())
    folders.extend(os.path.abspath(p) for p in path)
    seen: set[str] = set()
    shipped = []
    size = 0
    digest = hashlib.sha256()
    for folder in folders:
        if folder in seen:
            continue
        seen.add(folder)
        files = _read_folder(folder)
        if files is None:
            continue
        size += sum(len(t) for _, t in files)
        if size > MAX_BUNDLE_BYTES:
            files = ()
        shipped.append((folder, files))
        digest.update(folder.encode())
        for name, text in files:
            digest.update(name.encode())
            digest.update(text.encode())
    abs_file = os.path.abspath(file) if file else None
    digest.update((abs_file or "").encode())
    return CodeBundle(tuple(shipped), abs_file, digest.hexdigest()[:16])


def materialize(bundle: CodeBundle) -> tuple[list[str], str | None]:
    """Write the bundle under the temporary folder (once per key); returns
    (path folders in lookup order, the running file's local copy)."""
    root = os.path.join(tempfile.gettempdir(), f"matfuse-bundle-{os.getuid()}", bundle.key)
    done = os.path.join(root, ".complete")
    local_folders = []
    local_file = None
    for k, (folder, files) in enumerate(bundle.folders):
        if not files:
            # Too large to ship: use the client's folder where it exists.
            local_folders.append(folder)
            if bundle.file and os.path.dirname(bundle.file) == folder:
                local_file = bundle.file
            continue
        target = os.path.join(root, str(k))
        local_folders.append(target)
        if bundle.file and os.path.dirname(bundle.file) == folder:
            local_file = os.path.join(target, os.path.basename(bundle.file))
    if not os.path.exists(done):
        for k, (folder, files) in enumerate(bundle.folders):
            target = os.path.join(root, str(k))
            os.makedirs(target, exist_ok=True)
            for name, text in files:
                tmp = os.path.join(target, f".{name}.{os.getpid()}.tmp")
                with open(tmp, "w", encoding="utf-8") as fh:
                    fh.write(text)
                os.replace(tmp, os.path.join(target, name))
        with open(done, "w", encoding="utf-8"):
            pass
    if local_file is not None and not os.path.exists(local_file):
        local_file = bundle.file if bundle.file and os.path.exists(bundle.file) else None
    return local_folders, local_file
