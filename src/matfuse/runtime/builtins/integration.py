"""Numerical integration and ODE solvers: integral quadgk integral2 ode45 ode23.

SciPy does the numerics: adaptive Gauss-Kronrod quadrature (``quad``,
``quad_vec`` for 'ArrayValued', ``dblquad``) with MATLAB's default
tolerances (AbsTol 1e-10, RelTol 1e-6), and the Dormand-Prince RK45 /
Bogacki-Shampine RK23 pairs that ode45/ode23 use (RelTol 1e-3, AbsTol 1e-6,
Refine 4 output points per step for ode45 when tspan has two elements).
The user's function is called through ``ctx.call``.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, scalar_value
from matfuse.runtime.builtins._text_args import make_char
from matfuse.runtime.builtins.optimization import _option
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import FunctionHandle, StructArray, canonical, to_array, to_str


def _function(fun: Any, fn: str) -> Any:
    if is_text(fun):
        return to_str(fun)
    if not isinstance(fun, FunctionHandle):
        raise MatlabError(f"MATLAB:{fn}:invalidIntegrand", "Integrand must be a function handle.")
    return fun


def _name_values(args: tuple, fn: str, names: tuple[str, ...]) -> dict[str, Any]:
    if len(args) % 2:
        raise MatlabError(f"MATLAB:{fn}:InvalidNameValue", "Name-value arguments must come in pairs.")
    out: dict[str, Any] = {}
    for name, value in zip(args[::2], args[1::2]):
        key = to_str(name).lower() if is_text(name) else ""
        if key not in names:
            raise MatlabError(f"MATLAB:{fn}:unknownOption",
                              f"Invalid option '{to_str(name) if is_text(name) else '?'}'.")
        out[key] = value
    return out


def _scalar_caller(ctx: Any, fun: Any, fn: str) -> Callable[..., complex]:
    def value(*xs: float) -> complex:
        out = ctx.call(fun, [float(x) for x in xs], 1)
        arr = to_array(out[0]) if out else np.zeros((0, 0))
        if arr.size != 1:
            raise MatlabError(f"MATLAB:{fn}:integrandOutputSize",
                              "Output of the function must be the same size as the input.")
        return complex(arr.reshape(-1)[0])
    return value


def _quad_complex(f: Callable[[float], complex], a: float, b: float, abstol: float,
                  reltol: float, points: Any, errors: list[float] | None = None) -> complex:
    """quad of a possibly complex integrand (real and imaginary parts apart);
    the error estimates of the parts are appended to ``errors`` when given."""
    import scipy.integrate
    kwargs = {"epsabs": abstol, "epsrel": reltol, "limit": 650}
    if points is not None and np.isfinite(a) and np.isfinite(b):
        kwargs["points"] = points
    real, real_err = scipy.integrate.quad(lambda x: f(x).real, a, b, **kwargs)[:2]
    if errors is not None:
        errors.append(real_err)
    probe = f(a if np.isfinite(a) else (b if np.isfinite(b) else 0.0))
    if probe.imag == 0 and f((a + b) / 2 if np.isfinite(a + b) else 0.0).imag == 0:
        return complex(real, 0.0)
    imag, imag_err = scipy.integrate.quad(lambda x: f(x).imag, a, b, **kwargs)[:2]
    if errors is not None:
        errors.append(imag_err)
    return complex(real, imag)


@builtin("integral", category="integration", nargin=(3, None), needs_ctx=True)
def integral(ctx: Any, fun: Any, xmin: Any, xmax: Any, *options: Any) -> Any:
    """Definite integral of fun from xmin to xmax (limits may be infinite);
    options 'AbsTol', 'RelTol', 'ArrayValued', 'Waypoints'."""
    import scipy.integrate
    f = _function(fun, "integral")
    opts = _name_values(options, "integral", ("abstol", "reltol", "arrayvalued", "waypoints"))
    abstol = scalar_value(opts["abstol"], "integral") if "abstol" in opts else 1e-10
    reltol = scalar_value(opts["reltol"], "integral") if "reltol" in opts else 1e-6
    waypoints = to_array(opts["waypoints"]).reshape(-1) if "waypoints" in opts else np.zeros(0)
    limits = [to_array(v).reshape(-1) for v in (xmin, xmax)]
    single = any(v.dtype in (np.float32, np.complex64) for v in limits + [waypoints])
    if any(v.dtype.kind == "c" for v in limits + [waypoints]):
        # A complex limit or waypoint: the integral along the straight
        # segments a -> waypoints -> b in the complex plane.
        path = [complex(scalar_value(np.real(v), "integral"), scalar_value(np.imag(v), "integral"))
                for v in [limits[0]] + [w for w in waypoints] + [limits[1]]]
        result = _path_integral(_scalar_caller_complex(ctx, f, "integral"), path, abstol, reltol)
        return _result_class(result, single)
    a, b = scalar_value(xmin, "integral"), scalar_value(xmax, "integral")
    if "arrayvalued" in opts and bool(to_array(opts["arrayvalued"]).reshape(-1)[0]):
        shape = None

        def vector(x: float) -> np.ndarray:
            nonlocal shape
            arr = to_array(ctx.call(f, [float(x)], 1)[0]).astype(np.complex128)
            shape = arr.shape
            return arr.reshape(-1, order="F")

        value, _ = scipy.integrate.quad_vec(vector, a, b, epsabs=abstol, epsrel=reltol)
        out = np.asarray(value).reshape(shape, order="F")
        return canonical(out.real if not np.any(out.imag) else out)
    points = waypoints.astype(np.float64) if waypoints.size else None
    result = _quad_complex(_scalar_caller(ctx, f, "integral"), a, b, abstol, reltol, points)
    return _result_class(result, single)


def _result_class(result: complex, single: bool) -> Any:
    """A scalar integral: real when its imaginary part is zero, single when
    a limit or waypoint is single."""
    value: Any = result.real if result.imag == 0 else result
    return canonical(np.array([[value]], dtype=np.float32 if result.imag == 0 else np.complex64)) \
        if single else value


def _scalar_caller_complex(ctx: Any, fun: Any, fn: str) -> Callable[[complex], complex]:
    def value(z: complex) -> complex:
        arg = z.real if z.imag == 0 else canonical(np.array([[z]], dtype=np.complex128))
        out = ctx.call(fun, [arg], 1)
        arr = to_array(out[0]) if out else np.zeros((0, 0))
        if arr.size != 1:
            raise MatlabError(f"MATLAB:{fn}:integrandOutputSize",
                              "Output of the function must be the same size as the input.")
        return complex(arr.reshape(-1)[0])
    return value


def _path_integral(f: Callable[[complex], complex], path: list[complex], abstol: float,
                   reltol: float, errors: list[float] | None = None) -> complex:
    """Sum over the segments p -> q of the integral of f(p + t(q - p))(q - p), t in [0, 1]."""
    total = 0j
    for p, q in zip(path[:-1], path[1:]):
        if p == q:
            continue
        step = q - p
        total += _quad_complex(lambda t, p=p, step=step: f(p + t * step) * step,
                               0.0, 1.0, abstol, reltol, None, errors)
    return total


@builtin("quadgk", category="integration", nargin=(3, None), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def quadgk(ctx: Any, fun: Any, a: Any, b: Any, *options: Any, nargout: int = 1) -> Any:
    """Adaptive Gauss-Kronrod quadrature: [q, errbnd] = quadgk(fun, a, b,
    'AbsTol', 1e-10, 'RelTol', 1e-6, 'Waypoints', w); complex limits or
    waypoints integrate along straight segments; errbnd sums the error
    estimates of the pieces."""
    f = _function(fun, "quadgk")
    opts = _name_values(options, "quadgk", ("abstol", "reltol", "waypoints", "maxintervalcount"))
    abstol = scalar_value(opts["abstol"], "quadgk") if "abstol" in opts else 1e-10
    reltol = scalar_value(opts["reltol"], "quadgk") if "reltol" in opts else 1e-6
    waypoints = to_array(opts["waypoints"]).reshape(-1) if "waypoints" in opts else np.zeros(0)
    limits = [to_array(v).reshape(-1) for v in (a, b)]
    single = any(v.dtype in (np.float32, np.complex64) for v in limits + [waypoints])
    errors: list[float] = []
    if any(v.dtype.kind == "c" for v in limits + [waypoints]):
        path = [complex(scalar_value(np.real(v), "quadgk"), scalar_value(np.imag(v), "quadgk"))
                for v in [limits[0]] + [w for w in waypoints] + [limits[1]]]
        result = _path_integral(_scalar_caller_complex(ctx, f, "quadgk"), path, abstol, reltol, errors)
    else:
        lo, hi = scalar_value(a, "quadgk"), scalar_value(b, "quadgk")
        points = waypoints.astype(np.float64) if waypoints.size else None
        result = _quad_complex(_scalar_caller(ctx, f, "quadgk"), lo, hi, abstol, reltol, points, errors)
    q = _result_class(result, single)
    return (q, float(sum(errors))) if nargout > 1 else q


def _limit(v: Any, ctx: Any, fn: str) -> Callable[[float], float]:
    if isinstance(v, FunctionHandle):
        return lambda x: float(np.real(to_array(ctx.call(v, [float(x)], 1)[0]).reshape(-1)[0]))
    value = scalar_value(v, fn)
    return lambda x: value


@builtin("integral2", category="integration", nargin=(5, None), needs_ctx=True)
def integral2(ctx: Any, fun: Any, xmin: Any, xmax: Any, ymin: Any, ymax: Any, *options: Any) -> Any:
    """Double integral of fun(x, y) over xmin <= x <= xmax, ymin(x) <= y <= ymax(x);
    options 'AbsTol', 'RelTol', 'Method'."""
    import scipy.integrate
    f = _function(fun, "integral2")
    opts = _name_values(options, "integral2", ("abstol", "reltol", "method"))
    abstol = scalar_value(opts["abstol"], "integral2") if "abstol" in opts else 1e-10
    reltol = scalar_value(opts["reltol"], "integral2") if "reltol" in opts else 1e-6
    call = _scalar_caller(ctx, f, "integral2")
    value, _ = scipy.integrate.dblquad(lambda y, x: call(x, y).real,
                                       scalar_value(xmin, "integral2"), scalar_value(xmax, "integral2"),
                                       _limit(ymin, ctx, "integral2"), _limit(ymax, ctx, "integral2"),
                                       epsabs=abstol, epsrel=reltol)
    return float(value)


def _ode(ctx: Any, fun: Any, tspan: Any, y0: Any, options: Any, nargout: int, method: str,
         fn: str, refine_default: int) -> Any:
    import scipy.integrate
    f = _function(fun, fn)
    times = to_array(tspan).astype(np.float64).reshape(-1)
    if times.size < 2 or times[0] == times[-1]:
        raise MatlabError(f"MATLAB:{fn}:TspanSize",
                          "The time span must have at least two distinct elements.")
    initial = to_array(y0)
    # A complex y0 gives a complex solution (the explicit Runge-Kutta steps take complex values).
    kind = np.complex128 if initial.dtype.kind == "c" else np.float64
    start = initial.astype(kind)
    y_shape = start.shape
    rtol = _number(options, "RelTol", 1e-3)
    atol = _number(options, "AbsTol", 1e-6)
    refine = int(_number(options, "Refine", refine_default))

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        out = to_array(ctx.call(f, [float(t), canonical(y.reshape(-1, 1))], 1)[0])
        if out.size != y.size:
            raise MatlabError(f"MATLAB:{fn}:derivativeSize",
                              f"The function must return a column vector of length {y.size}.")
        return out.astype(kind).reshape(-1)

    if kind is np.float64 and to_array(ctx.call(f, [float(times[0]), canonical(start.reshape(-1, 1))],
                                                 1)[0]).dtype.kind == "c":
        kind = np.complex128           # complex slopes at the start: a complex solution
        start = start.astype(kind)
    # MaxStep defaults to a tenth of the interval (odeset's documented
    # default), which bounds how far apart the output points can be.
    extra: dict[str, Any] = {"max_step": 0.1 * abs(times[-1] - times[0])}
    max_step = _option(options, "MaxStep")
    if max_step is not None:
        extra["max_step"] = scalar_value(max_step, fn)
    first_step = _option(options, "InitialStep")
    if first_step is not None:
        extra["first_step"] = scalar_value(first_step, fn)
    sol = scipy.integrate.solve_ivp(rhs, (times[0], times[-1]), start.reshape(-1), method=method,
                                    rtol=rtol, atol=atol, dense_output=True,
                                    t_eval=times if times.size > 2 else None, **extra)
    if sol.status < 0:
        raise MatlabError(f"MATLAB:{fn}:IntegrationTolNotMet", f"Failure at t={sol.t[-1]:g}. {sol.message}")
    if times.size > 2:
        t_out, y_out = sol.t, sol.y
    else:
        steps = sol.t
        # a rounding-sized last step (the interval is a whole number of
        # MaxSteps) joins the step before it, as MATLAB stretches that step
        if steps.size > 2 and abs(steps[-1] - steps[-2]) <= \
                64 * np.finfo(float).eps * abs(steps[-1] - steps[0]):
            steps = np.delete(steps, -2)
        pieces = [steps[:1]]
        for k in range(1, steps.size):
            fractions = np.arange(1, refine + 1) / refine
            pieces.append(steps[k - 1] + fractions * (steps[k] - steps[k - 1]))
        t_out = np.concatenate(pieces)
        y_out = sol.sol(t_out)
        y_out[:, 0] = start.reshape(-1)
    if nargout <= 1:
        return StructArray.scalar({
            "solver": make_char(fn), "x": canonical(sol.t.reshape(1, -1)),
            "y": canonical(sol.y), "stats": StructArray.scalar({"nfevals": float(sol.nfev)})})
    del y_shape
    return canonical(t_out.reshape(-1, 1)), canonical(np.ascontiguousarray(y_out.T))


def _number(options: Any, name: str, default: float) -> float:
    value = _option(options, name)
    return default if value is None else scalar_value(value, "odeset")


@builtin("ode45", category="integration", nargin=(3, 4), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def ode45(ctx: Any, fun: Any, tspan: Any, y0: Any, options: Any = None, nargout: int = 1) -> Any:
    """Nonstiff ODE solver, explicit Runge-Kutta (4,5): [t, y] = ode45(odefun, tspan, y0);
    sol = ode45(...) returns a solution structure."""
    return _ode(ctx, fun, tspan, y0, options, nargout, "RK45", "ode45", 4)


@builtin("ode23", category="integration", nargin=(3, 4), nargout=(0, 2), needs_ctx=True,
         wants_nargout=True)
def ode23(ctx: Any, fun: Any, tspan: Any, y0: Any, options: Any = None, nargout: int = 1) -> Any:
    """Nonstiff ODE solver, explicit Runge-Kutta (2,3): [t, y] = ode23(odefun, tspan, y0)."""
    return _ode(ctx, fun, tspan, y0, options, nargout, "RK23", "ode23", 1)


@builtin("odeset", category="integration", nargin=(0, None))
def odeset(*args: Any) -> Any:
    """ODE options structure with every documented field ([] when unset):
    odeset('RelTol', 1e-6, ...), odeset(old, 'Name', value), odeset(old, new)
    (new's nonempty values replace old's). Names are case-insensitive."""
    values: dict[str, Any] = {name: np.zeros((0, 0)) for name in ODE_OPTION_NAMES}
    rest = list(args)
    first = True
    while rest and isinstance(rest[0], StructArray):
        given = rest.pop(0).data.reshape(-1)[0]
        values.update({_ode_option_name(k): v for k, v in given.items()
                       if first or not (isinstance(v, np.ndarray) and v.size == 0)})
        first = False
    if len(rest) % 2:
        raise MatlabError("MATLAB:odeset:InvalidNameValue", "Arguments must occur in name-value pairs.")
    for name, value in zip(rest[::2], rest[1::2]):
        values[_ode_option_name(to_str(name) if is_text(name) else "")] = value
    return StructArray.scalar(values)


# odeset's fields, in the order of MATLAB's options structure.
ODE_OPTION_NAMES = ("AbsTol", "BDF", "Events", "InitialStep", "Jacobian", "JConstant", "JPattern",
                    "Mass", "MassSingular", "MaxOrder", "MaxStep", "NonNegative", "NormControl",
                    "OutputFcn", "OutputSel", "Refine", "RelTol", "Stats", "Vectorized",
                    "MStateDependence", "MvPattern", "InitialSlope")


def _ode_option_name(name: str) -> str:
    for known in ODE_OPTION_NAMES:
        if known.lower() == name.lower():
            return known
    raise MatlabError("MATLAB:odeset:InvalidPropertyName", f"Unrecognized property name '{name}'.")