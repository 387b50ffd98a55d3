"""inline: a function made from an expression in text (MATLAB's legacy form
of anonymous functions, still in MATLAB).

``inline(expr)`` takes its argument from the expression as MATLAB's inline
documents: an isolated lower-case letter other than i and j (the one
closest to x when there are several, the later letter on a tie), else x;
``inline(expr, 'a', 'b')`` names the arguments; ``inline(expr, n)`` takes
x, P1, ..., Pn. The result calls like the anonymous function
``@(args) expr``; it is that function handle (``class`` reports
function_handle, not MATLAB's inline class).
"""

from __future__ import annotations

import re
from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._common import is_text, text_arg
from matfuse.runtime.builtins.lang_builtins import str2func
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import char_array, to_array

_ISOLATED_LETTER = re.compile(r"(?<![A-Za-z0-9_.'])([a-hk-z])(?![A-Za-z0-9_])")


def default_argument(expr: str) -> str:
    """The argument MATLAB's inline(expr) finds in expr."""
    code = re.sub(r"'(?:[^']|'')*'", "''", expr)      # letters inside strings do not count
    letters = set(_ISOLATED_LETTER.findall(code))
    if not letters:
        return "x"
    return max(letters, key=lambda c: (-abs(ord(c) - ord("x")), c))


@builtin("inline", category="function handles", nargin=(1, None), needs_ctx=True)
def inline(ctx: Any, expr: Any, *args: Any) -> Any:
    """Function from an expression: inline('sin(x)'), inline('x + y', 'x', 'y'),
    inline(expr, n) with arguments x, P1, ..., Pn."""
    text = text_arg(expr, "inline", "expression")
    if not args:
        names = [default_argument(text)]
    elif len(args) == 1 and not is_text(args[0]):
        count = to_array(args[0]).reshape(-1)
        if count.size != 1 or count[0] < 0 or count[0] != int(count[0]):
            raise MatlabError("MATLAB:inline:InvalidArgument",
                              "The number of parameters must be a nonnegative integer.")
        names = ["x"] + [f"P{k}" for k in range(1, int(count[0]) + 1)]
    else:
        names = [text_arg(a, "inline", "argument name") for a in args]
    for name in names:
        if not re.fullmatch(r"[A-Za-z]\w*", name):
            raise MatlabError("MATLAB:inline:InvalidArgument", f"'{name}' is not a valid argument name.")
    return str2func(ctx, char_array(f"@({', '.join(names)}) {text}"))
