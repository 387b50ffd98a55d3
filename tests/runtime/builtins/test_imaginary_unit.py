"""i and j (matfuse.runtime.builtins.imaginary_unit)."""

from __future__ import annotations

import io

from matfuse.vm.session import Session


def _run(code: str) -> str:
    out = io.StringIO()
    Session(stdout=out, stderr=io.StringIO()).eval(code)
    return out.getvalue()


def test_i_and_j_are_the_imaginary_unit_until_shadowed() -> None:
    assert _run("x = i") == "x =\n\n   0.0000 + 1.0000i\n\n"
    assert _run("disp(j * j)") == "    -1\n"
    assert _run("for i = 1:2, end; disp(i); clear i; disp(imag(i))") == "     2\n     1\n"
