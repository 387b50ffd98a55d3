"""Shared WGSL pieces: type names, uniform packing, dispatch geometry."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

WORKGROUP = 256

#: numpy dtype name -> WGSL storage element type
STORAGE_TYPE = {"float32": "f32", "float64": "f64", "int32": "i32", "uint32": "u32", "bool": "u32",
                # 8/16-bit integers are stored widened (buffers.DEVICE_TYPES)
                "int8": "i32", "int16": "i32", "uint8": "u32", "uint16": "u32",
                # interleaved (re, im): only data-movement kernels accept these
                "complex64": "vec2<f32>", "complex128": "vec2<f64>"}

_SCALAR_FMT = {"u32": ("I", 4), "i32": ("i", 4), "f32": ("f", 4), "f64": ("d", 8)}


@dataclass
class UniformStruct:
    """Builds a WGSL uniform struct and its bytes with WGSL layout rules."""

    fields: list[tuple[str, str, object]] = field(default_factory=list)

    def add(self, name: str, ty: str, value: object) -> "UniformStruct":
        self.fields.append((name, ty, value))
        return self

    def add_u32_array(self, name: str, values: list[int], length: int) -> "UniformStruct":
        """``array<vec4<u32>, length/4>``: read as ``name[i >> 2u][i & 3u]``."""
        padded = list(values) + [0] * (length - len(values))
        self.fields.append((name, f"array<vec4<u32>, {length // 4}>", padded))
        return self

    def wgsl(self, name: str = "Params") -> str:
        body = "".join(f"  {n}: {t},\n" for n, t, _ in self.fields)
        return f"struct {name} {{\n{body}}};\n"

    def pack(self) -> bytes:
        out = bytearray()
        max_align = 4
        for _, ty, value in self.fields:
            if ty.startswith("array<vec4<u32>"):
                align, data = 16, struct.pack(f"<{len(value)}I", *[int(v) & 0xFFFFFFFF for v in value])
            else:
                fmt, align = _SCALAR_FMT[ty]
                v = int(value) & 0xFFFFFFFF if ty == "u32" else value
                if ty == "f32":
                    # a double beyond single's range is +-Inf in single (MATLAB's
                    # conversion), not a packing error
                    with np.errstate(over="ignore"):
                        v = float(np.float32(v))
                data = struct.pack("<" + fmt, v)
            max_align = max(max_align, align)
            out.extend(b"\0" * (-len(out) % align))
            out.extend(data)
        out.extend(b"\0" * (-len(out) % max(max_align, 16)))
        return bytes(out)


#: loop iterations one invocation may run per dispatch of a step-by-step
#: factorisation kernel (lavapipe ends loops at 65,535)
TRIPS_PER_DISPATCH = 40000
#: multiply-adds one such dispatch may hold (a few milliseconds on lavapipe)
WORK_PER_DISPATCH = 1 << 22


def step_chunks(count: int, cost_of: Callable[[int], tuple[int, int]],
                trips_bound: int = TRIPS_PER_DISPATCH,
                work_bound: int = WORK_PER_DISPATCH) -> list[tuple[int, int]]:
    """``[k0, k1)`` ranges of ``count`` sequential steps (columns of an
    elimination) per dispatch: each range takes steps while its loop trips
    and work (``cost_of(k) -> (trips, work)``) stay under both bounds, and at
    least one step."""
    chunks, k0 = [], 0
    while k0 < count:
        k1, trips, work = k0, 0, 0
        while k1 < count:
            t, w = cost_of(k1)
            if k1 > k0 and (trips + t > trips_bound or work + w > work_bound):
                break
            trips, work = trips + t, work + w
            k1 += 1
        chunks.append((k0, k1))
        k0 = k1
    return chunks


def groups_for(n_threads: int, max_per_dim: int, cap: int = 65535) -> tuple[int, int, int]:
    """1-D workgroup count for ``n_threads`` (kernels grid-stride past the cap)."""
    g = max(1, -(-int(n_threads) // WORKGROUP))
    return (min(g, cap, max_per_dim), 1, 1)


def groups_2d(n_groups: int, max_per_dim: int) -> tuple[int, int, int]:
    """Exactly ``n_groups`` workgroups as x*y (kernels use wid.x + wid.y*nwg.x
    and skip ids past the end)."""
    n = max(1, int(n_groups))
    if n <= max_per_dim:
        return (n, 1, 1)
    y = -(-n // max_per_dim)
    return (max_per_dim, y, 1)
