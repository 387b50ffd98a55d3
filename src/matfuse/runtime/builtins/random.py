"""Random numbers: rand, randn, randi, randperm, rng.

All draws come from the process-wide generator in ``runtime._rng`` (MT19937
``twister`` by default, ``philox`` on request) and fill results in
column-major element order.  ``randi`` derives from the uniform stream as
MATLAB does: ``randi(imax)`` is ``ceil(rand * imax)`` and ``randi([lo hi])``
is ``lo + floor(rand * (hi - lo + 1))``; ``randperm(n)`` is the sort order of
``rand(1, n)`` (``randperm(n, k)`` its first ``k`` entries).

Under auto-offload, large ``rand``/``randn``/``randi`` calls of a twister
program continue this same stream on the device (``accelerate/
twister_stream.py``), so offloaded and CPU runs print the same numbers;
explicit ``'gpuArray'`` draws use the GPU stream (``gpurng``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime import _rng, gpu_rng
from matfuse.runtime.builtins._common import (
    is_text,
    parse_class_args,
    parse_size_args,
    scalar_value,
)
from matfuse.runtime.device_router import device_router
from matfuse.runtime.registry import GpuSpec, builtin
from matfuse.runtime.values import (
    INTEGER_CLASSES,
    DeviceValue,
    StructArray,
    canonical,
    char_array,
    class_of,
    dtype_for_class,
    is_complex_value,
    to_array,
    to_str,
)

_BAD_SEED = ("First input must be a nonnegative integer seed less than 2^32, 'shuffle', "
             "'default', or a scalar structure returned by RNG.")


def _to_device_if_like(value: Any, like: Any) -> Any:
    """Move a host result to the device when ``'like'`` asked for a gpuArray."""
    if like is None or not (isinstance(like, DeviceValue) or (isinstance(like, str) and like == "gpuArray")):
        return value
    return device_router().to_device_like(value, like)


def _wants_device(like: Any) -> bool:
    if isinstance(like, DeviceValue):
        return not like.is_complex()
    return isinstance(like, str) and like == "gpuArray"


def _device_random(kind: str, shape: tuple[int, ...], cls: str, like: Any) -> Any:
    """A gpuArray drawn on the device from the GPU stream (MATLAB's gpurng),
    or None when the device cannot make it (then the host draws it)."""
    if not _wants_device(like):
        return None
    return device_router().random(kind, shape, cls)


def _float_class(cls: str, fn: str) -> str:
    if cls not in ("double", "single"):
        raise MatlabError(f"MATLAB:{fn}:invalidOutputType",
                          f"Unsupported class '{cls}' for {fn}; the class must be 'double' or 'single'.")
    return cls


def _finish(flat: np.ndarray, shape: tuple[int, ...], like: Any) -> Any:
    arr = flat.reshape(shape, order="F")
    if like is not None and not isinstance(like, str) and is_complex_value(like):
        arr = arr.astype(np.complex64 if arr.dtype == np.float32 else np.complex128)
    return _to_device_if_like(canonical(arr), like)


_LEGACY_SEED_FORMS = ("state", "seed", "twister")


def _legacy_seed(args: tuple, fn: str) -> tuple[bool, Any]:
    """MATLAB's legacy seeding syntax (documented as not recommended, still
    supported): rand('state'|'seed'|'twister', s) reseeds the generator with
    the scalar s or restores a state vector that rand('state') returned.
    Returns (handled, result)."""
    if not 1 <= len(args) <= 2 or not is_text(args[0]) or \
            to_str(args[0]).lower() not in _LEGACY_SEED_FORMS:
        return False, None
    gen = _rng.GENERATOR
    if len(args) == 1:
        return True, canonical(gen.get_state().astype(np.float64))
    values = to_array(args[1]).astype(np.float64).reshape(-1)
    if values.size == 0 or not np.all(np.isfinite(values)):
        raise MatlabError(f"MATLAB:{fn}:invalidSeed", "The seed must be a finite numeric value.")
    if gen.type == "twister" and values.size == 625:
        gen.set_state("twister", gen.seed, values.astype(np.uint32))
    else:
        gen.reseed(int(abs(values[0])) % (2 ** 32) if values.size == 1
                   else int(np.sum(np.abs(values))) % (2 ** 32), "twister")
    return True, None


def _n_of(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape, dtype=np.int64))


@builtin("rand", category="random", nargin=(0, None),
         gpu=GpuSpec(kind="construction", hook="random_uniform", op="uniform"))
def rand(*args: Any) -> Any:
    """Uniformly distributed random numbers in (0, 1); rand('state', s)
    reseeds (legacy syntax)."""
    handled, state = _legacy_seed(args, "rand")
    if handled:
        return state
    rest, cls, like = parse_class_args(list(args), "rand")
    cls = _float_class(cls, "rand")
    shape = parse_size_args(rest, "rand", 4 if cls == "single" else 8)
    on_device = _device_random("rand", shape, cls, like)
    if on_device is not None:
        return on_device
    return _finish(_rng.GENERATOR.uniform(_n_of(shape), cls), shape, like)


@builtin("randn", category="random", nargin=(0, None),
         gpu=GpuSpec(kind="construction", hook="random_normal", op="normal"))
def randn(*args: Any) -> Any:
    """Standard normal random numbers (Box-Muller; not MATLAB's ziggurat bits);
    randn('state', s) reseeds (legacy syntax)."""
    handled, state = _legacy_seed(args, "randn")
    if handled:
        return state
    rest, cls, like = parse_class_args(list(args), "randn")
    cls = _float_class(cls, "randn")
    shape = parse_size_args(rest, "randn", 4 if cls == "single" else 8)
    on_device = _device_random("randn", shape, cls, like)
    if on_device is not None:
        return on_device
    return _finish(_rng.GENERATOR.normal(_n_of(shape), cls), shape, like)


def randi_limits(v: Any) -> tuple[float, float]:
    """(lo, hi) of randi's first argument (IMAX or [IMIN IMAX])."""
    arr = to_array(v)
    bad = MatlabError("MATLAB:randi:invalidLimits",
                      "The first input must be a positive scalar integer value IMAX, or two integer "
                      "values [IMIN IMAX] with IMIN less than or equal to IMAX.")
    if arr.dtype.kind in "UcO" or arr.size not in (1, 2):
        raise bad
    vals = arr.reshape(-1, order="F").astype(np.float64)
    if not np.all(np.isfinite(vals)) or np.any(vals != np.floor(vals)):
        raise bad
    lo, hi = (1.0, vals[0]) if vals.size == 1 else (vals[0], vals[1])
    if hi < lo:
        raise bad
    return float(lo), float(hi)


@builtin("randi", category="random", nargin=(1, None),
         gpu=GpuSpec(kind="construction", hook="random_uniform", op="randi"))
def randi(limits: Any, *args: Any) -> Any:
    """Uniformly distributed random integers: randi(imax, sz...), randi([lo hi], ...)."""
    rest, cls, like = parse_class_args(list(args), "randi")
    if cls not in ("double", "single") + INTEGER_CLASSES:
        raise MatlabError("MATLAB:randi:invalidOutputType",
                          f"Unsupported class '{cls}' for randi.")
    lo, hi = randi_limits(limits)
    shape = parse_size_args(rest, "randi", 8)
    if cls in INTEGER_CLASSES:
        info = np.iinfo(dtype_for_class(cls))
        if lo < info.min or hi > info.max:
            raise MatlabError("MATLAB:randi:invalidLimitsForOutputType",
                              f"The range of possible values must be within the range of the output class '{cls}'.")
    u = _rng.GENERATOR.uniform(_n_of(shape), "double")
    values = lo + np.floor(u * (hi - lo + 1.0))
    return _finish(values.astype(dtype_for_class(cls)), shape, like)


@builtin("randperm", category="random", nargin=(1, 2))
def randperm(n: Any, k: Any = None) -> Any:
    """Random permutation of 1:n (or k unique integers from 1:n)."""
    nn = _nonneg_int(n, "randperm")
    kk = nn if k is None else _nonneg_int(k, "randperm")
    if kk > nn:
        raise MatlabError("MATLAB:randperm:inputKTooLarge", "K must be less than or equal to N.")
    u = _rng.GENERATOR.uniform(nn, "double")
    order = np.argsort(u, kind="stable")[:kk] + 1.0
    return canonical(order.reshape(1, kk))


def _nonneg_int(v: Any, fn: str) -> int:
    x = scalar_value(v, fn)
    if not np.isfinite(x) or x < 0 or x != np.floor(x):
        raise MatlabError(f"MATLAB:{fn}:invalidArgument", "Inputs must be nonnegative integers.")
    return int(x)


# ------------------------------------------------------------------- rng
def _settings() -> StructArray:
    gen = _rng.GENERATOR
    return StructArray.scalar({
        "Type": char_array(gen.type),
        "Seed": np.array([[gen.seed]], dtype=np.uint32),
        "State": gen.get_state(),
    })


def _gen_type(v: Any) -> str:
    name = to_str(v).lower() if is_text(v) else ""
    aliases = {"twister": "twister", "mt19937ar": "twister", "v5uniform": "twister",
               "philox": "philox", "philox4x32_10": "philox", "philox4x32-10": "philox"}
    if name not in aliases:
        raise MatlabError("MATLAB:rng:badSettings",
                          f"Unknown generator type '{to_str(v) if is_text(v) else class_of(v)}'. "
                          "Supported types are 'twister' and 'philox'.")
    return aliases[name]


def _restore(s: StructArray) -> None:
    if s.data.size != 1 or not {"Type", "Seed", "State"} <= set(s.fields):
        raise MatlabError("MATLAB:rng:badSettings", _BAD_SEED)
    entry = s.data.reshape(-1)[0]
    gen_type = _gen_type(entry["Type"])
    seed = int(scalar_value(entry["Seed"], "rng"))
    _rng.GENERATOR.set_state(gen_type, seed, to_array(entry["State"]))


@builtin("rng", category="random", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def rng(*args: Any, nargout: int = 0) -> Any:
    """Control the random generator: rng(seed[, type]), rng('default'),
    rng('shuffle'), rng(s); ``s = rng(...)`` returns the settings before the call."""
    previous = _settings()
    gen = _rng.GENERATOR
    if not args:
        return previous
    first = args[0]
    gen_type = _gen_type(args[1]) if len(args) == 2 else None
    if isinstance(first, StructArray):
        if len(args) != 1:
            raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
        _restore(first)
    elif is_text(first):
        word = to_str(first).lower()
        if word == "default":
            if len(args) != 1:
                raise MatlabError("MATLAB:TooManyInputs", "Too many input arguments.")
            gen.reseed(0, "twister")
        elif word == "shuffle":
            gen.reseed(gen.shuffle_seed(), gen_type)
        else:
            raise MatlabError("MATLAB:rng:badFirstOpt", _BAD_SEED)
    else:
        gen.reseed(_seed_of(first, "MATLAB:rng:badFirstOpt"), gen_type)
    _seed_device_in_parfor(gen.seed)
    return previous if nargout else None


def _seed_device_in_parfor(seed: int) -> None:
    """Inside a parfor iteration, ``rng`` also restarts the device stream
    at the host seed (as ``gpurng(seed)``): MATLAB keeps the two apart,
    but then an iteration's gpuArray numbers would depend on which worker
    ran it and what that worker ran before; this way an iteration that
    seeds itself draws the same numbers on the client and on any worker."""
    from matfuse.parallel.iterations import inside_iteration

    if inside_iteration():
        from matfuse.runtime import gpu_rng

        gpu_rng.seed(seed)


def _seed_of(v: Any, identifier: str) -> int:
    """A numeric seed argument: a nonnegative integer below 2^32."""
    arr = to_array(v)
    if arr.size != 1 or arr.dtype.kind in "Ubc":
        raise MatlabError(identifier, _BAD_SEED)
    seed = float(arr.reshape(-1)[0])
    if not np.isfinite(seed) or seed < 0 or seed != np.floor(seed) or seed >= 2 ** 32:
        raise MatlabError(identifier, _BAD_SEED)
    return int(seed)


# ------------------------------------------------------------------- gpurng
_GPU_TYPE = "Philox4x32_10"


def _gpu_settings() -> StructArray:
    seed, counter = gpu_rng.own_state()
    state = np.array([[counter & 0xFFFFFFFF], [counter >> 32]], dtype=np.uint32)
    return StructArray.scalar({
        "Type": char_array(_GPU_TYPE),
        "Seed": np.array([[seed]], dtype=np.uint32),
        "State": state,
    })


@builtin("gpurng", category="random", nargin=(0, 2), nargout=(0, 1), wants_nargout=True)
def gpurng(*args: Any, nargout: int = 0) -> Any:
    """Control the GPU random stream: gpurng(seed[, type]), gpurng('default'),
    gpurng('shuffle'), gpurng(s); ``s = gpurng(...)`` returns the settings
    before the call. The device stream is Philox4x32-10 (used unless
    ``rng(seed, 'philox')`` makes host and device share one stream)."""
    previous = _gpu_settings()
    if not args:
        return previous
    first = args[0]
    if len(args) == 2 and _gen_type(args[1]) != "philox":
        raise MatlabError("parallel:gpu:rng:badGeneratorType",
                          "The GPU random generator type must be 'Philox4x32-10' (or 'Philox').")
    if isinstance(first, StructArray):
        if len(args) != 1 or first.data.size != 1 or not {"Seed", "State"} <= set(first.fields):
            raise MatlabError("parallel:gpu:rng:badSettings", _BAD_SEED)
        entry = first.data.reshape(-1)[0]
        words = to_array(entry["State"]).reshape(-1)
        counter = int(words[0]) | (int(words[1]) << 32) if words.size >= 2 else 0
        gpu_rng.restore(int(scalar_value(entry["Seed"], "gpurng")), counter)
    elif is_text(first):
        word = to_str(first).lower()
        if word == "default":
            gpu_rng.seed(0)
        elif word == "shuffle":
            gpu_rng.seed(_rng.GENERATOR.shuffle_seed())
        else:
            raise MatlabError("parallel:gpu:rng:badFirstOpt", _BAD_SEED)
    else:
        gpu_rng.seed(_seed_of(first, "parallel:gpu:rng:badFirstOpt"))
    return previous if nargout else None
