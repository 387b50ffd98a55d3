"""NVRTC module cache of the CUDA provider.

A kernel is compiled once per complete key: the source, the NVRTC options,
the device's compute capability, the CUDA runtime, NVRTC and CuPy versions
and the matfuse version. Compiled cubins live in memory (loaded modules) and
on disk under the platformdirs cache directory (``<cache>/cuda/<key>.cubin``),
so a later process loads them without compiling.

Compilation goes through CuPy's NVRTC binding (``cupy.cuda.nvrtc``) and the
cubin is loaded with ``cupy.cuda.function.Module``. A CuPy without that
binding falls back to ``cupy.RawModule(code=...)`` (CuPy's own cache; counted
as ``rawmodule_compiles``).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Sequence

from matfuse.accelerate_api.support import MATFUSE_VERSION, read_bytes_safe, write_bytes_atomic


class KernelCompileError(RuntimeError):
    """NVRTC rejected generated source: a matfuse bug, reported with the log."""


def default_cache_dir() -> Path:
    """``<user cache dir>/matfuse/cuda`` (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("matfuse")) / "cuda"


class KernelCache:
    """Compiled CUDA functions by complete key, in memory and on disk.

    Args:
        cupy: the imported ``cupy`` module.
        cache_dir: where cubins are kept; ``None`` for the platformdirs
            default, ``""`` to keep nothing on disk.
    """

    def __init__(self, cupy: Any, cache_dir: str | Path | None = None):
        self.cp = cupy
        device = cupy.cuda.Device()
        self.arch = str(device.compute_capability)          # e.g. "90"
        self.runtime_version = int(cupy.cuda.runtime.runtimeGetVersion())
        nvrtc = getattr(cupy.cuda, "nvrtc", None)
        self._nvrtc = nvrtc if nvrtc is not None and hasattr(nvrtc, "getCUBIN") else None
        self.nvrtc_version = tuple(nvrtc.getVersion()) if nvrtc is not None else ()
        self.cupy_version = str(cupy.__version__)
        if cache_dir is None:
            cache_dir = default_cache_dir()
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self.disk_error = ""
        self._functions: dict[tuple[str, str], Any] = {}
        # (source, options, entry) -> function: a launch of an already loaded
        # kernel costs one dict lookup, not a hash of its source text.
        self._loaded: dict[tuple[str, tuple[str, ...], str], Any] = {}
        self._modules: dict[str, Any] = {}
        self.stats = {"hits": 0, "misses": 0, "disk_hits": 0, "compiles": 0,
                      "rawmodule_compiles": 0}

    # ------------------------------------------------------------ keys
    def options_for(self, options: Sequence[str]) -> tuple[str, ...]:
        """NVRTC options with the device architecture (cubin for this GPU)."""
        return (f"--gpu-architecture=sm_{self.arch}", *options)

    def key(self, source: str, options: Sequence[str]) -> str:
        """Hash of everything the compiled binary depends on."""
        parts = {
            "source": source, "options": list(options), "arch": self.arch,
            "cuda_runtime": self.runtime_version, "nvrtc": list(self.nvrtc_version),
            "cupy": self.cupy_version, "matfuse": MATFUSE_VERSION,
        }
        blob = json.dumps(parts, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:40]

    # ------------------------------------------------------------ lookup
    def function(self, source: str, entry: str, options: Sequence[str] = ()) -> Any:
        """The compiled ``entry`` of ``source`` (a ``cupy.cuda.function.Function``)."""
        loaded = self._loaded.get((source, tuple(options), entry))
        if loaded is not None:
            self.stats["hits"] += 1
            return loaded
        full = self.options_for(options)
        key = self.key(source, full)
        fn = self._functions.get((key, entry))
        if fn is not None:
            self.stats["hits"] += 1
            self._loaded[(source, tuple(options), entry)] = fn
            return fn
        self.stats["misses"] += 1
        module = self._modules.get(key)
        if module is None:
            module = self._load_or_compile(key, source, full)
            self._modules[key] = module
        fn = module.get_function(entry)
        self._functions[(key, entry)] = fn
        self._loaded[(source, tuple(options), entry)] = fn
        return fn

    def _load_or_compile(self, key: str, source: str, options: tuple[str, ...]) -> Any:
        if self._nvrtc is None:
            self.stats["rawmodule_compiles"] += 1
            return self.cp.RawModule(code=source, options=options[1:], backend="nvrtc")
        path = self.cache_dir / f"{key}.cubin" if self.cache_dir is not None else None
        cubin = read_bytes_safe(path) if path is not None else None
        if cubin:
            self.stats["disk_hits"] += 1
        else:
            cubin = self._compile(source, options)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    write_bytes_atomic(path, cubin)
                except OSError as err:
                    # An unwritable cache dir costs compile time, not correctness.
                    self.stats["disk_errors"] = self.stats.get("disk_errors", 0) + 1
                    self.disk_error = str(err)
                    self.cache_dir = None
        module = self.cp.cuda.function.Module()
        module.load(cubin)
        return module

    def _compile(self, source: str, options: tuple[str, ...]) -> bytes:
        nvrtc = self._nvrtc
        self.stats["compiles"] += 1
        prog = nvrtc.createProgram(source, "matfuse_kernel.cu", [], [])
        try:
            try:
                nvrtc.compileProgram(prog, list(options))
            except nvrtc.NVRTCError as err:
                log = nvrtc.getProgramLog(prog)
                raise KernelCompileError(f"NVRTC failed ({err}):\n{log}\n--- source ---\n{source}") from None
            return bytes(nvrtc.getCUBIN(prog))
        finally:
            nvrtc.destroyProgram(prog)

    def clear_memory(self) -> None:
        """Forget loaded modules (disk files stay)."""
        self._functions.clear()
        self._modules.clear()
        self._loaded.clear()
