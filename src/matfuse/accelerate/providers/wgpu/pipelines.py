"""Compute pipeline cache.

Key: SHA-256 of (WGSL source, entry point, binding layout, workgroup size,
adapter, matfuse version). Pipelines live in memory for the process; the
WGSL sources are also written under the platformdirs cache directory so
``warm_from_disk`` can compile the kernels a previous run used (wgpu-py
exposes no portable binary pipeline cache, so we persist sources).

Binding layout (shared by every kernel, including fused ones): group 0,
``n_in`` read-only storage buffers at bindings ``0..n_in-1``, ``n_out``
read-write storage buffers after them, then one uniform buffer (dynamic
offset; one 256-byte slot of the per-batch uniform arena).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from matfuse.accelerate_api import Unsupported
from matfuse.accelerate_api.support import (
    MATFUSE_VERSION,
    read_bytes_safe,
    warn_on_stderr,
    write_text_atomic,
)

UNIFORM_SLOT = 256


@dataclass(frozen=True)
class Layout:
    """Binding signature of a kernel."""

    n_in: int
    n_out: int

    @property
    def uniform_binding(self) -> int:
        return self.n_in + self.n_out


@dataclass
class CompiledKernel:
    pipeline: object
    layout: Layout
    bind_group_layout: object
    key: str


def cache_dir(base: str | Path | None = None) -> Path:
    """Where WGSL sources are persisted: ``<base>/wgsl`` (``base``:
    ``AccelerateInitOptions.kernel_cache_dir``; None: the user cache folder)."""
    if base:
        return Path(base) / "wgsl"
    import platformdirs

    return Path(platformdirs.user_cache_dir("matfuse")) / "wgsl"


class PipelineCache:
    """Compiles WGSL once per process; counts hits and misses."""

    def __init__(self, device: object, adapter_key: str, persist: bool = True,
                 cache_base: str | Path | None = None):
        self._device = device
        self._folder = cache_dir(cache_base)
        self._adapter_key = adapter_key
        self._pipelines: dict[str, CompiledKernel] = {}
        self._bgl: dict[Layout, tuple[object, object]] = {}
        self._persist = persist
        self.hits = 0
        self.misses = 0

    def stats(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "size": len(self._pipelines)}

    def key_of(self, source: str, entry_point: str, layout: Layout, workgroup: tuple[int, ...]) -> str:
        h = hashlib.sha256()
        for part in (source, entry_point, repr((layout.n_in, layout.n_out)), repr(workgroup),
                     self._adapter_key, MATFUSE_VERSION):
            h.update(part.encode())
            h.update(b"\0")
        return h.hexdigest()

    def layout_objects(self, layout: Layout) -> tuple[object, object]:
        """(bind group layout, pipeline layout) for ``layout``, cached."""
        got = self._bgl.get(layout)
        if got is not None:
            return got
        import wgpu

        entries = []
        for b in range(layout.n_in + layout.n_out):
            kind = (wgpu.BufferBindingType.read_only_storage if b < layout.n_in
                    else wgpu.BufferBindingType.storage)
            entries.append({"binding": b, "visibility": wgpu.ShaderStage.COMPUTE,
                            "buffer": {"type": kind}})
        entries.append({"binding": layout.uniform_binding, "visibility": wgpu.ShaderStage.COMPUTE,
                        "buffer": {"type": wgpu.BufferBindingType.uniform,
                                   "has_dynamic_offset": True}})
        bgl = self._device.create_bind_group_layout(entries=entries)
        pl = self._device.create_pipeline_layout(bind_group_layouts=[bgl])
        self._bgl[layout] = (bgl, pl)
        return bgl, pl

    def get(self, source: str, entry_point: str, layout: Layout,
            workgroup: tuple[int, ...] = (256,), key: str | None = None) -> CompiledKernel:
        """The compiled pipeline for ``source``.

        Raises:
            Unsupported: the WGSL does not compile on this adapter (a bug in a
                renderer; the caller falls back to the host and counts it).
        """
        # a caller's cache_key stands in for the source text (cheaper to hash)
        key = self.key_of(key if key else source, entry_point, layout, workgroup)
        got = self._pipelines.get(key)
        if got is not None:
            self.hits += 1
            return got
        self.misses += 1
        import wgpu

        bgl, pl = self.layout_objects(layout)
        try:
            module = self._device.create_shader_module(code=source)
            pipeline = self._device.create_compute_pipeline(
                layout=pl, compute={"module": module, "entry_point": entry_point})
        except wgpu.GPUValidationError as exc:
            raise Unsupported(f"wgpu: kernel failed to compile: {exc}") from exc
        kernel = CompiledKernel(pipeline, layout, bgl, key)
        self._pipelines[key] = kernel
        if self._persist:
            self._write_source(key, source, entry_point, layout, workgroup)
        return kernel

    def _write_source(self, key: str, source: str, entry_point: str, layout: Layout,
                      workgroup: tuple[int, ...]) -> None:
        path = self._folder / f"{key[:32]}.wgsl"
        if path.exists():
            return
        wg = ",".join(str(w) for w in workgroup)
        header = f"// matfuse entry={entry_point} n_in={layout.n_in} n_out={layout.n_out} wg={wg}\n"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, header + source)
        except OSError:
            # A read-only cache dir only costs the warm start; never fail a kernel for it.
            self._persist = False

    def warm_from_disk(self, limit: int = 64) -> int:
        """Compile up to ``limit`` persisted kernels; returns how many."""
        folder = self._folder
        if not folder.is_dir():
            return 0
        done = 0
        for path in sorted(folder.glob("*.wgsl"))[:limit]:
            data = read_bytes_safe(path)    # skips (with a warning) FIFOs, folders
            if data is None:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                warn_on_stderr(f"removing corrupt shader cache file {path}")
                _remove_quietly(path)
                continue
            first, _, source = text.partition("\n")
            fields = dict(p.split("=", 1) for p in first.split()[2:] if "=" in p)
            try:
                layout = Layout(int(fields["n_in"]), int(fields["n_out"]))
                wg = tuple(int(w) for w in fields.get("wg", "256").split(","))
                self.get(source, fields["entry"], layout, wg)
                done += 1
            except (KeyError, ValueError, Unsupported):
                _remove_quietly(path)
        return done


def _remove_quietly(path: Path) -> None:
    """Delete a corrupt cache file; a read-only cache keeps it."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass
