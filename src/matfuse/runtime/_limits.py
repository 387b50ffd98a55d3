"""Array size limits: MATLAB's errors for arrays too large to create.

MATLAB refuses an array larger than its *array size preference* (by default
the machine's physical memory) with ``MATLAB:array:SizeLimitExceeded``, and
an unbounded one (``1:Inf``) with ``MATLAB:pmaxsize``. Checking up front keeps a typo such as ``1:1e12`` from
exhausting the machine (or surfacing as a Python MemoryError).
"""

from __future__ import annotations

import os

from matfuse.errors import MAX_DIMENSIONS, MatlabError, too_many_dimensions_error


def _memory_limit_bytes() -> int:
    """Physical memory (Linux sysconf), else 64 GiB."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 64 << 30


MEMORY_LIMIT = _memory_limit_bytes()

# MATLAB's largest element count (and dimension length) on 64-bit machines.
MAX_ELEMENTS = 2 ** 48 - 1


def max_size_error() -> MatlabError:
    """More elements than the program can address (``1:Inf``, ``zeros(1e20)``)."""
    return MatlabError("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.")


def check_shape(shape: tuple[int, ...], itemsize: int = 1) -> None:
    """The one validation of a requested array size: at most MAX_DIMENSIONS
    dimensions, no length or element count beyond MAX_ELEMENTS
    (``MATLAB:pmaxsize``), and no more bytes than memory allows
    (``MATLAB:array:SizeLimitExceeded``, see :func:`check_allocation`).
    ``itemsize`` is the bytes per element; 1 (the default) only rejects
    what no element class could hold.
    """
    if len(shape) > MAX_DIMENSIONS:
        raise too_many_dimensions_error()
    check_allocation(shape, itemsize)


def check_allocation(shape: tuple[int, ...], itemsize: int) -> None:
    """Raise MATLAB's size-limit error for arrays that cannot fit in memory.

    Requests over half the physical memory fail: the other half is what the
    computation on the array will need. A length or element count beyond
    MAX_ELEMENTS is ``MATLAB:pmaxsize``.
    """
    count = 1
    for d in shape:
        d = int(d)
        if d > MAX_ELEMENTS:
            raise max_size_error()
        count *= d
    if count > MAX_ELEMENTS:
        raise max_size_error()
    nbytes = count * itemsize
    if nbytes > MEMORY_LIMIT // 2:
        dims = "x".join(str(int(d)) for d in shape)
        raise MatlabError(
            "MATLAB:array:SizeLimitExceeded",
            f"Requested {dims} ({nbytes / 2 ** 30:.1f}GB) array exceeds maximum array size preference "
            f"({MEMORY_LIMIT / 2 ** 30:.1f}GB). This might cause MATLAB to become unresponsive.")
