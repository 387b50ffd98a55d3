"""bsxfun: apply a binary elementwise function with singleton expansion.

Both inputs are expanded along their singleton dimensions to the common size
(sizes must be equal or 1 in every dimension), then ``fun`` is called once on
the expanded arrays; its result must have that size, as MATLAB requires.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.indexing import paren_get
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import FunctionHandle, shape_of, to_str


def _expanded(v: Any, target: tuple[int, ...]) -> Any:
    """``v`` repeated along its singleton dimensions up to ``target``."""
    shape = shape_of(v) + (1,) * (len(target) - len(shape_of(v)))
    if shape == target:
        return v
    idx = [np.ones((1, t)) if n == 1 and t != 1 else np.arange(1.0, n + 1).reshape(1, -1)
           for n, t in zip(shape, target)]
    return paren_get(v, idx)


@builtin("bsxfun", category="function handles", nargin=(3, 3), needs_ctx=True)
def bsxfun(ctx: Any, fun: Any, a: Any, b: Any) -> Any:
    """Binary elementwise operation with implicit expansion: bsxfun(@plus, A, B)."""
    if is_text(fun):
        fun = to_str(fun)
    elif not isinstance(fun, FunctionHandle):
        raise MatlabError("MATLAB:bsxfun:FirstArgFcnHandle",
                          "First argument must be a function handle.")
    sa, sb = shape_of(a), shape_of(b)
    ndim = max(len(sa), len(sb))
    sa = sa + (1,) * (ndim - len(sa))
    sb = sb + (1,) * (ndim - len(sb))
    target = []
    for x, y in zip(sa, sb):
        if x != y and x != 1 and y != 1:
            raise MatlabError("MATLAB:bsxfun:arrayDimensionsMustMatch",
                              "Non-singleton dimensions of the two input arrays must match each other.")
        target.append(y if x == 1 else x)
    full = tuple(target)
    result = ctx.call(fun, [_expanded(a, full), _expanded(b, full)], 1)[0]
    out_shape = shape_of(result)
    if out_shape + (1,) * (len(full) - len(out_shape)) != full:
        raise MatlabError("MATLAB:bsxfun:fcnOutputSizeMismatch",
                          "Output of the function must be the same size as the expanded inputs.")
    return result
