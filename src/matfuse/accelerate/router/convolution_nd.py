"""Device path of ``convn``: N-D convolution composed from ``conv2``.

For matrices (at most two dimensions each) ``convn`` is by definition
``conv2`` of the same operands. For N-D operands the full result is built
page by page: with A seen as m x n x P pages and B as a x b x Q (the
trailing dimensions in column-major order), page ``k`` of the full result
is the sum of ``conv2(A(:, :, p), B(:, :, q))`` over the page pairs whose
trailing subscripts add up to ``k``'s (the definition of convolution along
the trailing dimensions). ``'same'`` and ``'valid'`` keep the host's parts
of the full result along every dimension: from ``floor(size(B)/2)`` on the
size of A, and from ``size(B)`` the ``size(A) - size(B) + 1`` computed
without zero padding.

Left to the host (None: the counted fallback, which raises MATLAB's
errors): empty operands or results, operands that are not real double or
single of one class, and a non-text shape argument.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.accelerate.class_rules import operand_kind
from matfuse.accelerate.router.compose_ops import COLON, call, index, op
from matfuse.runtime.values import is_char, shape_of, to_str

_MODES = ("full", "same", "valid")
#: parts joined by one concatenation
_GROUP = 64


def _shape(v: Any, nd: int) -> tuple[int, ...]:
    shape = shape_of(v)
    return shape + (1,) * (nd - len(shape))


def _page(v: Any, shape: tuple[int, ...], k: int) -> Any:
    """Page ``k`` (0-based, column-major over the trailing dimensions)."""
    pages = call("reshape", v, float(shape[0]), float(shape[1]), float(np.prod(shape[2:])))
    return index(pages, COLON, COLON, float(k + 1))


def convn_on_device(args: list[Any], nargout: int, ctx: Any) -> list[Any] | None:
    """``convn(A, B)`` and ``convn(A, B, shape)``."""
    if len(args) not in (2, 3) or nargout > 1:
        return None
    if len(args) == 3 and not (is_char(args[2]) and to_str(args[2]).lower() in _MODES):
        return None
    mode = to_str(args[2]).lower() if len(args) == 3 else "full"
    a, b = args[:2]
    if all(len(shape_of(v)) <= 2 for v in (a, b)):
        return [call("conv2", *args)]
    kinds = [operand_kind(v) for v in (a, b)]
    if any(k is None or k[1] or k[0] not in ("double", "single") for k in kinds) or \
            kinds[0][0] != kinds[1][0]:
        return None
    nd = max(len(shape_of(a)), len(shape_of(b)))
    sa, sb = _shape(a, nd), _shape(b, nd)
    if 0 in sa or 0 in sb:
        return None
    cut = _cut(sa, sb, mode)
    if cut is None:
        return None
    full_shape = tuple(p + q - 1 for p, q in zip(sa, sb))
    pages: dict[int, Any] = {}
    trail_a, trail_b, trail_c = sa[2:], sb[2:], full_shape[2:]
    for pa in range(int(np.prod(trail_a))):
        sub_a = np.unravel_index(pa, trail_a, order="F")
        page_a = _page(a, sa, pa)
        for pb in range(int(np.prod(trail_b))):
            sub_b = np.unravel_index(pb, trail_b, order="F")
            k = int(np.ravel_multi_index(tuple(i + j for i, j in zip(sub_a, sub_b)), trail_c,
                                         order="F"))
            term = call("conv2", page_a, _page(b, sb, pb))
            pages[k] = term if k not in pages else op("+", pages[k], term)
    full = call("reshape", _columns([pages[k] for k in range(len(pages))]),
                *[float(d) for d in full_shape])
    if mode == "full":
        return [full]
    return [index(full, *cut)]


def _columns(pages: list[Any]) -> Any:
    """``[pages{1}(:) pages{2}(:) ...]``, concatenated in groups (a
    provider may bound the parts of one concatenation)."""
    columns = [call("reshape", page, float(np.prod(page.shape)), 1.0) for page in pages]
    while len(columns) > 1:
        columns = [call("horzcat", *columns[i:i + _GROUP]) for i in range(0, len(columns), _GROUP)]
    return columns[0]


def _cut(sa: tuple[int, ...], sb: tuple[int, ...], mode: str) -> list[Any] | None:
    """Subscripts of the ``mode`` part of the full result (None: empty)."""
    subs: list[Any] = []
    for p, q in zip(sa, sb):
        if mode == "same":
            first, count = q // 2, p
        elif mode == "valid":
            first, count = q - 1, p - q + 1
        else:
            first, count = 0, p + q - 1
        if count <= 0:
            return None
        subs.append(np.arange(first + 1, first + count + 1, dtype=np.float64).reshape(1, -1))
    return subs


COMPOSED = {"convn": convn_on_device}
