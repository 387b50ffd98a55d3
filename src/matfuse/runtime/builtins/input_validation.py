"""Argument validation helpers: validatestring.

``validatestring(str, validStrings)`` returns the valid string that ``str``
matches case-insensitively as a prefix; when several match and each is a
prefix of the next (``'app'`` vs ``'apple'``), the shortest wins, otherwise
the choice is ambiguous. Optional funcName, varName and argIndex only shape
the error message, as in MATLAB.
"""

from __future__ import annotations

from typing import Any

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
