"""Special functions: gamma, log-gamma, error functions and beta."""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._math_support import binary_inputs, finish, float_array
from matfuse.runtime.builtins.elementwise_math import binary_spec, unary_spec
from matfuse.runtime.registry import builtin


def _scipy_special(fn_name: str) -> Callable[[np.ndarray], np.ndarray]:
    """scipy.special.<fn_name>, imported on first call (scipy.special costs ~50 ms at startup)."""
    def call(arr: np.ndarray) -> np.ndarray:
        import scipy.special
        return getattr(scipy.special, fn_name)(arr)
    return call


def _real_only(name: str, fn: Callable[[np.ndarray], np.ndarray],
               fast: Callable[[float], float] | None, doc: str) -> None:
    def impl(x: Any) -> Any:
        if fast is not None and type(x) is float:
            try:
                return float(fast(x))
            except (ValueError, OverflowError):
                pass
        arr = float_array(x, name)
        if arr.dtype.kind == "c":
            raise MatlabError(f"MATLAB:{name}:notFullReal", "Input must be real and full.")
        with np.errstate(all="ignore"):
            return finish(fn(arr).astype(arr.dtype))

    impl.__doc__ = doc
    impl.__name__ = name
    builtin(name, category="elementwise", nargin=(1, 1), gpu=unary_spec(name), fusion=name)(impl)


def _gamma(a: np.ndarray) -> np.ndarray:
    import scipy.special
    out = scipy.special.gamma(a)
    # MATLAB: poles (0 and negative integers) give Inf, not NaN.
    poles = (a <= 0) & (a == np.floor(a)) & np.isfinite(a)
    return np.where(poles & (a != 0), np.inf, out)


def _gamma_fast(x: float) -> float:
    if x <= 0 and x == math.floor(x):
        return math.copysign(math.inf, x) if x == 0 else math.inf
    return math.gamma(x)


_real_only("gamma", _gamma, _gamma_fast, "Gamma function.")
_real_only("gammaln", _scipy_special("gammaln"), None, "Logarithm of the gamma function.")
_real_only("erf", _scipy_special("erf"), math.erf, "Error function.")
_real_only("erfc", _scipy_special("erfc"), math.erfc, "Complementary error function.")
_real_only("erfinv", _scipy_special("erfinv"), None, "Inverse error function.")
_real_only("erfcinv", _scipy_special("erfcinv"), None, "Inverse complementary error function.")


@builtin("beta", category="elementwise", nargin=(2, 2), gpu=binary_spec("beta"))
def beta(z: Any, w: Any) -> Any:
    """Beta function B(z, w) = gamma(z)gamma(w)/gamma(z+w)."""
    a, b, _ = binary_inputs(z, w, "beta", allow_int=False)
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        raise MatlabError("MATLAB:beta:notReal", "Input must be real.")
    import scipy.special
    with np.errstate(all="ignore"):
        return finish(scipy.special.beta(a, b).astype(a.dtype))
