"""Scalar root finding and minimisation: optimset optimget fzero fminbnd
fminsearch.

The user's function is called through ``ctx.call``; SciPy does the numerics
(Brent's method for fzero and fminbnd, Nelder-Mead for fminsearch) with
MATLAB's default tolerances (TolX 1e-4 and TolFun 1e-4 for the minimisers,
eps for fzero, 200*n iterations and function evaluations for fminsearch).
Outputs are ``[x, fval, exitflag, output]`` as in MATLAB.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, numeric_values, scalar_value
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import FunctionHandle, StructArray, canonical, to_array, to_str

OPTION_NAMES = ("Display", "FunValCheck", "MaxFunEvals", "MaxIter", "OutputFcn", "PlotFcns",
                "TolFun", "TolX")


@builtin("optimset", category="optimization", nargin=(0, None))
def optimset(*args: Any) -> Any:
    """Options structure: optimset('TolX', 1e-8, ...), optimset(old, 'Name', value),
    optimset(old, new) (the nonempty values of new replace old's)."""
    values: dict[str, Any] = {name: np.zeros((0, 0)) for name in OPTION_NAMES}
    rest = list(args)
    first = True
    while rest and isinstance(rest[0], StructArray):
        given = rest.pop(0).data.reshape(-1)[0]
        values.update({_option_name(k): v for k, v in given.items()
                       if first or not (isinstance(v, np.ndarray) and v.size == 0)})
        first = False
    if len(rest) % 2:
        raise MatlabError("MATLAB:optimset:InvalidParamName", "Arguments must occur in name-value pairs.")
    for name, value in zip(rest[::2], rest[1::2]):
        values[_option_name(to_str(name) if is_text(name) else "")] = value
    return StructArray.scalar(values)


def _option_name(name: str) -> str:
    for known in OPTION_NAMES:
        if known.lower() == name.lower():
            return known
    raise MatlabError("MATLAB:optimset:InvalidParamName", f"Unrecognized parameter name '{name}'.")


@builtin("optimget", category="optimization", nargin=(2, 3))
def optimget(options: Any, name: Any, default: Any = None) -> Any:
    """An option's value, or default when it is empty or absent."""
    value = _option(options, to_str(name))
    if value is None:
        return default if default is not None else np.zeros((0, 0))
    return value


def _option(options: Any, name: str) -> Any:
    if not isinstance(options, StructArray) or options.data.size != 1:
        return None
    entry = options.data.reshape(-1)[0]
    for key, value in entry.items():
        if key.lower() == name.lower():
            if isinstance(value, np.ndarray) and value.size == 0:
                return None
            return value
    return None


def _number_option(options: Any, name: str, default: float) -> float:
    value = _option(options, name)
    return default if value is None else scalar_value(value, "optimset")


def _objective(ctx: Any, fun: Any, fn: str) -> Callable[[Any], float]:
    if is_text(fun):
        fun = to_str(fun)
    elif not isinstance(fun, FunctionHandle):
        raise MatlabError(f"MATLAB:{fn}:InvalidFun", "FUN must be a function handle.")

    def value(x: Any) -> float:
        out = ctx.call(fun, [canonical(np.asarray(x, dtype=np.float64)) if isinstance(x, np.ndarray)
                             else float(x)], 1)
        arr = to_array(out[0]) if out else np.zeros((0, 0))
        if arr.size != 1:
            raise MatlabError(f"MATLAB:{fn}:FunNotScalar" if fn != "fzero" else "MATLAB:fzero:FunNotScalar",
                              "FUN must return a scalar value.")
        return float(np.real(arr.reshape(-1)[0]))

    return value


def _output_struct(iterations: int, evaluations: int, algorithm: str, message: str) -> StructArray:
    return StructArray.scalar({
        "iterations": float(iterations), "funcCount": float(evaluations),
        "algorithm": make_char(algorithm), "message": make_char(message)})


def _bracket(f: Callable[[float], float], x0: float) -> tuple[float, float, float, float, int]:
    """Search outward from x0 for a sign change (MATLAB's fzero strategy:
    steps growing by sqrt(2) from x0/50, or 1/50 at 0)."""
    fx0 = f(x0)
    count = 1
    if fx0 == 0:
        return x0, x0, fx0, fx0, count
    dx = abs(x0) / 50.0 if x0 != 0 else 1.0 / 50.0
    while dx < 1e308:
        a, b = x0 - dx, x0 + dx
        fa, fb = f(a), f(b)
        count += 2
        if not (math.isfinite(fa) and math.isfinite(fb)):
            break
        if fa * fx0 <= 0:
            return a, x0, fa, fx0, count
        if fb * fx0 <= 0:
            return x0, b, fx0, fb, count
        dx *= math.sqrt(2.0)
    raise MatlabError("MATLAB:fzero:NoSignChange",
                      "Exiting fzero: aborting search for an interval containing a sign change "
                      "because no sign change was found.")


@builtin("fzero", category="optimization", nargin=(2, 3), nargout=(0, 4), needs_ctx=True,
         wants_nargout=True)
def fzero(ctx: Any, fun: Any, x0: Any, options: Any = None, nargout: int = 1) -> Any:
    """Root of a function of one variable: fzero(fun, x0) from a starting
    point or fzero(fun, [a b]) in an interval where fun changes sign."""
    import scipy.optimize
    f = _objective(ctx, fun, "fzero")
    start = numeric_values(x0).astype(np.float64).reshape(-1)   # a char x0 is its codes
    tol = _number_option(options, "TolX", float(np.finfo(float).eps))
    if start.size == 2:
        a, b = float(start[0]), float(start[1])
        fa, fb = f(a), f(b)
        count = 2
        if fa * fb > 0:
            raise MatlabError("MATLAB:fzero:ValuesAtEndPtsSameSign",
                              "The function values at the interval endpoints must differ in sign.")
    elif start.size == 1:
        a, b, fa, fb, count = _bracket(f, float(start[0]))
    else:
        raise MatlabError("MATLAB:fzero:InvalidX0", "Second argument must be a scalar or vector of length 2.")
    if fa == 0 or fb == 0 or a == b:
        x = a if fa == 0 else b
        iterations = 0
    else:
        x, info = scipy.optimize.brentq(f, a, b, xtol=max(tol, 1e-300), rtol=4 * np.finfo(float).eps,
                                        full_output=True, disp=False)
        iterations, count = info.iterations, count + info.function_calls
    outs: list[Any] = [float(x), f(x), 1.0,
                       _output_struct(iterations, count, "bisection, interpolation",
                                      "Zero found in the interval")]
    return tuple(outs[:max(nargout, 1)]) if nargout > 1 else outs[0]


@builtin("fminbnd", category="optimization", nargin=(3, 4), nargout=(0, 4), needs_ctx=True,
         wants_nargout=True)
def fminbnd(ctx: Any, fun: Any, x1: Any, x2: Any, options: Any = None, nargout: int = 1) -> Any:
    """Minimum of a function of one variable on the interval [x1, x2]
    (golden section and parabolic interpolation, TolX 1e-4)."""
    import scipy.optimize
    f = _objective(ctx, fun, "fminbnd")
    lo, hi = scalar_value(x1, "fminbnd"), scalar_value(x2, "fminbnd")
    if lo > hi:
        raise MatlabError("MATLAB:fminbnd:LowerBoundGreaterThanUpperBound",
                          "The lower bound exceeds the upper bound.")
    tol = _number_option(options, "TolX", 1e-4)
    maxiter = int(_number_option(options, "MaxIter", 500))
    res = scipy.optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                         options={"xatol": tol, "maxiter": maxiter})
    flag = 1.0 if res.success else 0.0
    outs: list[Any] = [float(res.x), float(res.fun), flag,
                       _output_struct(int(res.nit), int(res.nfev),
                                      "golden section search, parabolic interpolation",
                                      "Optimization terminated")]
    return tuple(outs[:max(nargout, 1)]) if nargout > 1 else outs[0]


@builtin("fminsearch", category="optimization", nargin=(1, 3), nargout=(0, 4), needs_ctx=True,
         wants_nargout=True)
def fminsearch(ctx: Any, fun: Any, x0: Any = None, options: Any = None, nargout: int = 1) -> Any:
    """Unconstrained minimum of a function of several variables
    (Nelder-Mead simplex); x has the shape of x0. fminsearch(problem) reads
    the fields objective, x0 and options of a problem structure."""
    import scipy.optimize
    if x0 is None:
        fun, x0, options = _problem_fields(fun, "fminsearch")
    f = _objective(ctx, fun, "fminsearch")
    start = numeric_values(x0).astype(np.float64)   # a char x0 is its codes
    shape = start.shape
    n = start.size
    opts = {"xatol": _number_option(options, "TolX", 1e-4),
            "fatol": _number_option(options, "TolFun", 1e-4),
            "maxiter": int(_number_option(options, "MaxIter", 200 * n)),
            "maxfev": int(_number_option(options, "MaxFunEvals", 200 * n))}
    # MATLAB's initial simplex: 5% steps (0.00025 for zero components).
    flat = start.reshape(-1, order="F")
    simplex = [flat.copy()]
    for k in range(n):
        point = flat.copy()
        point[k] = point[k] * 1.05 if point[k] != 0 else 0.00025
        simplex.append(point)
    opts["initial_simplex"] = np.array(simplex)
    res = scipy.optimize.minimize(lambda v: f(v.reshape(shape, order="F")), flat,
                                  method="Nelder-Mead", options=opts)
    x = canonical(np.asarray(res.x).reshape(shape, order="F"))
    flag = 1.0 if res.success else 0.0
    outs: list[Any] = [x, float(res.fun), flag,
                       _output_struct(int(res.nit), int(res.nfev), "Nelder-Mead simplex direct search",
                                      "Optimization terminated")]
    return tuple(outs[:max(nargout, 1)]) if nargout > 1 else outs[0]


def _problem_fields(problem: Any, fn: str) -> tuple[Any, Any, Any]:
    """(objective, x0, options) of a problem structure."""
    if not isinstance(problem, StructArray) or problem.data.size != 1:
        raise MatlabError("MATLAB:minrhs", "Not enough input arguments.")
    fields = problem.data.reshape(-1)[0]
    if "objective" not in fields or "x0" not in fields:
        raise MatlabError(f"MATLAB:{fn}:InvalidProblem",
                          "The problem structure must have the fields 'objective' and 'x0'.")
    return fields["objective"], fields["x0"], fields.get("options")
