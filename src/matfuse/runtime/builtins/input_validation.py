"""Argument validation helpers: validatestring validateattributes.

``validatestring(str, validStrings)`` returns the valid string that ``str``
matches case-insensitively as a prefix; when several match and each is a
prefix of the next (``'app'`` vs ``'apple'``), the shortest wins, otherwise
the choice is ambiguous. Optional funcName, varName and argIndex only shape
the error message, as in MATLAB.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text
from matfuse.runtime.builtins._text_args import make_char, text_arg
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import StringArray, to_str


def _message_prefix(extra: tuple) -> str:
    texts = [to_str(v) for v in extra if is_text(v)]
    func = texts[0] if texts else ""
    var = texts[1] if len(texts) > 1 else "input"
    return (f"{func}: " if func else "") + ("Expected " + var if var else "Expected input")


@builtin("validatestring", category="validation", nargin=(2, 5))
def validatestring(s: Any, valid: Any, *extra: Any) -> Any:
    """The valid string matched by a (case-insensitive) prefix of str."""
    options = [o or "" for o in text_arg(valid, "validatestring", "Valid strings").items]
    prefix = _message_prefix(extra)
    listed = ", ".join(f"'{o}'" for o in options)
    if not is_text(s):
        raise MatlabError("MATLAB:validatestring:invalidStringInput",
                          f"{prefix} to be a character vector or string scalar.")
    text = to_str(s)
    matches = [o for o in options if text and o.lower().startswith(text.lower())]
    exact = [o for o in matches if o.lower() == text.lower()]
    if exact:
        chosen = exact[0]
    elif not matches:
        raise MatlabError("MATLAB:unrecognizedStringChoice",
                          f"{prefix} to match one of these values:\n\n{listed}\n\n"
                          f"The input, '{text}', did not match any of the valid values.")
    else:
        shortest = min(matches, key=len)
        if all(m.lower().startswith(shortest.lower()) for m in matches):
            chosen = shortest
        else:
            raise MatlabError("MATLAB:ambiguousStringChoice",
                              f"{prefix} to match one of these values:\n\n{listed}\n\n"
                              f"The input, '{text}', matched more than one valid value.")
    if isinstance(s, StringArray):
        return StringArray.scalar(chosen)
    return make_char(chosen)


# ------------------------------------------------------ validateattributes
_CLASS_GROUPS = {
    "numeric": ("double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32",
                "int64", "uint64"),
    "float": ("double", "single"),
    "integer": ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"),
}

# attribute -> (identifier suffix, message text, test on the values array)
_SIMPLE_ATTRIBUTES: dict[str, tuple[str, str, Any]] = {
    "positive": ("expectedPositive", "positive", lambda a: np.all(a.real > 0)),
    "nonnegative": ("expectedNonnegative", "nonnegative", lambda a: np.all(a.real >= 0)),
    "negative": ("expectedNegative", "negative", lambda a: np.all(a.real < 0)),
    "nonpositive": ("expectedNonpositive", "nonpositive", lambda a: np.all(a.real <= 0)),
    "nonzero": ("expectedNonZero", "nonzero", lambda a: np.all(a != 0)),
    "integer": ("expectedInteger", "integer-valued",
                lambda a: np.all(np.isfinite(a)) and np.all(a == np.round(a))),
    "finite": ("expectedFinite", "finite", lambda a: np.all(np.isfinite(a))),
    "nonnan": ("expectedNonNaN", "non-NaN", lambda a: not np.any(np.isnan(a))),
    "real": ("expectedReal", "real", lambda a: a.dtype.kind != "c"),
    "binary": ("expectedBinary", "binary", lambda a: np.all((a == 0) | (a == 1))),
    "even": ("expectedEven", "even", lambda a: np.all(np.mod(a, 2) == 0)),
    "odd": ("expectedOdd", "odd", lambda a: np.all(np.mod(a, 2) == 1)),
    "increasing": ("expectedIncreasing", "increasing", lambda a: np.all(np.diff(a.reshape(-1)) > 0)),
    "decreasing": ("expectedDecreasing", "decreasing", lambda a: np.all(np.diff(a.reshape(-1)) < 0)),
    "nondecreasing": ("expectedNondecreasing", "nondecreasing",
                      lambda a: np.all(np.diff(a.reshape(-1)) >= 0)),
    "nonincreasing": ("expectedNonincreasing", "nonincreasing",
                      lambda a: np.all(np.diff(a.reshape(-1)) <= 0)),
}

_SHAPE_ATTRIBUTES: dict[str, tuple[str, str, Any]] = {
    "scalar": ("expectedScalar", "scalar", lambda s: s == (1, 1)),
    "vector": ("expectedVector", "a vector", lambda s: len(s) == 2 and 1 in s),
    "row": ("expectedRow", "a row vector", lambda s: len(s) == 2 and s[0] == 1),
    "column": ("expectedColumn", "a column vector", lambda s: len(s) == 2 and s[1] == 1),
    "2d": ("expected2D", "two-dimensional", lambda s: len(s) == 2),
    "3d": ("expected3D", "three-dimensional", lambda s: len(s) <= 3),
    "square": ("expectedSquare", "a square matrix", lambda s: len(s) == 2 and s[0] == s[1]),
    "nonempty": ("expectedNonempty", "nonempty", lambda s: 0 not in s),
    "nonsparse": ("expectedNonsparse", "nonsparse", lambda s: True),
    "diag": ("expectedDiag", "diagonal", None),
}

_COMPARISONS = {">": ("expectedGreater", "greater than", np.greater),
                ">=": ("expectedGreaterEqual", "greater than or equal to", np.greater_equal),
                "<": ("expectedLess", "less than", np.less),
                "<=": ("expectedLessEqual", "less than or equal to", np.less_equal)}


def _subject(where: tuple) -> str:
    """How validateattributes' messages name the value: ``input``, the
    variable name, or with an argument index ``input number 2, X,``."""
    texts = [to_str(v) if is_text(v) else "" for v in where[:2]]
    var = texts[1] if len(texts) > 1 and texts[1] else ""
    if len(where) > 2 and not is_text(where[2]):
        index = int(np.asarray(where[2], dtype=float).reshape(-1)[0])
        return f"input number {index}, {var}," if var else f"input number {index}"
    return var or "input"


def _fail(identifier: str, message: str, where: tuple) -> MatlabError:
    texts = [to_str(v) for v in where[:1] if is_text(v)]
    func = texts[0] if texts else ""
    prefix = f"{func}: " if func else ""
    return MatlabError(f"MATLAB:validateattributes:{identifier}",
                       f"{prefix}Expected {_subject(where)} to be {message}.")


@builtin("validateattributes", category="validation", nargin=(3, 6), nargout=(0, 0))
def validateattributes(a: Any, classes: Any, attributes: Any, *where: Any) -> None:
    """Check a value's class and attributes; errors with MATLAB's identifiers
    (MATLAB:invalidType, MATLAB:validateattributes:expected...)."""
    from matfuse.runtime.values import CellArray, class_of, shape_of, to_array

    allowed = [c or "" for c in text_arg(classes, "validateattributes", "Classes").items] \
        if not (isinstance(classes, CellArray) and classes.data.size == 0) else []
    cls = class_of(a)
    if allowed:
        expanded = {n for c in allowed for n in _CLASS_GROUPS.get(c, (c,))}
        if cls not in expanded:
            raise MatlabError("MATLAB:invalidType",
                              f"Expected {_subject(where)} to be one of these types:\n\n{', '.join(allowed)}\n\n"
                              f"Instead its type was {cls}.")
    if not isinstance(attributes, CellArray):
        raise MatlabError("MATLAB:validateattributes:badAttributeList",
                          "Attributes must be a cell array.")
    items = list(attributes.data.reshape(-1, order="F"))
    shape = shape_of(a)
    k = 0
    while k < len(items):
        name = to_str(items[k]).lower() if is_text(items[k]) else ""
        k += 1
        if name in _SHAPE_ATTRIBUTES:
            ident, text, test = _SHAPE_ATTRIBUTES[name]
            if name == "diag":
                arr = to_array(a)
                ok = arr.ndim == 2 and not np.any(arr - np.diag(np.diag(arr))) if arr.ndim == 2 else False
            else:
                ok = test(shape)
            if not ok:
                raise _fail(ident, text, where)
            continue
        if name in _SIMPLE_ATTRIBUTES:
            ident, text, test = _SIMPLE_ATTRIBUTES[name]
            arr = to_array(a)
            if arr.dtype.kind == "U":
                arr = np.array([ord(c) for c in arr.reshape(-1)], dtype=np.float64)
            with np.errstate(invalid="ignore"):
                if arr.size and not test(arr.astype(np.complex128 if arr.dtype.kind == "c" else np.float64)):
                    raise _fail(ident, text, where)
            continue
        if k >= len(items):
            raise MatlabError("MATLAB:validateattributes:badAttributeList",
                              f"Attribute '{name}' requires a value.")
        value = to_array(items[k]).astype(np.float64)
        k += 1
        if name in _COMPARISONS:
            ident, text, op = _COMPARISONS[name]
            arr = to_array(a).astype(np.float64)
            if not np.all(op(arr, value.reshape(-1)[0])):
                raise _fail(ident, f"{text} {value.reshape(-1)[0]:g}", where)
        elif name == "size":
            want = value.reshape(-1)
            # Dimensions past ndims are 1 (a NaN entry matches any size).
            padded = tuple(shape) + (1,) * (len(want) - len(shape))
            ok = len(want) >= len(shape) and all(np.isnan(w) or w == s for w, s in zip(want, padded))
            if not ok:
                dims = "x".join("N" if np.isnan(w) else str(int(w)) for w in want)
                raise _fail("incorrectSize", f"of size {dims} when it is actually size "
                            f"{'x'.join(str(s) for s in shape)}", where)
        elif name in ("numel", "nrows", "ncols", "ndims"):
            actual = {"numel": int(np.prod(shape)), "nrows": shape[0], "ncols": shape[1],
                      "ndims": len(shape)}[name]
            if actual != int(value.reshape(-1)[0]):
                raise _fail(f"incorrect{name.capitalize()}", f"an array with {int(value.reshape(-1)[0])} "
                            f"{'elements' if name == 'numel' else name[1:]}", where)
        else:
            raise MatlabError("MATLAB:validateattributes:badAttributeList",
                              f"'{name}' is not a valid attribute.")
    return None
