"""Golden programs: every ``tests/golden/<area>/NAME.m`` that has a sibling
``NAME.out`` runs in a fresh ``matfuse.Session``; its stdout must equal the
``.out`` file exactly.

Optional ``NAME.err``: the expected stderr (warnings, then the uncaught error's
MATLAB-style report), with the ``.m`` file's folder removed from paths, e.g.::

    Error: Index exceeds the number of array elements. Index must not exceed 3.
    Error in uncaught_error.m (line 3)
    y = x(7);
        ^

Without ``.err`` the program must not raise (stderr is not compared).
``.m`` files without ``.out`` are helpers (functions/scripts the goldens call).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from matfuse.errors import MatlabError

GOLDEN_ROOT = Path(__file__).parent


def golden_programs() -> list[Path]:
    return sorted(p for p in GOLDEN_ROOT.rglob("*.m") if p.with_suffix(".out").exists())


def run_golden(path: Path) -> tuple[str, str, MatlabError | None]:
    """(stdout, stderr with the folder stripped, uncaught error) of one program."""
    from matfuse.vm.session import Session

    out, err = io.StringIO(), io.StringIO()
    session = Session(stdout=out, stderr=err)
    caught: MatlabError | None = None
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        session.run_file(str(path))
    except MatlabError as exc:
        caught = exc
        err.write(exc.report().rstrip("\n") + "\n")
    finally:
        os.chdir(cwd)
    folder = str(path.parent.resolve()) + os.sep
    return out.getvalue(), err.getvalue().replace(folder, ""), caught


@pytest.mark.parametrize("path", golden_programs(),
                         ids=lambda p: str(p.relative_to(GOLDEN_ROOT)))
def test_golden(path: Path) -> None:
    stdout, stderr, error = run_golden(path)
    expected_out = path.with_suffix(".out").read_text(encoding="utf-8")
    err_file = path.with_suffix(".err")
    if error is not None and not err_file.exists():
        pytest.fail(f"uncaught error:\n{stderr}\n--- stdout so far ---\n{stdout}")
    assert stdout == expected_out
    if err_file.exists():
        assert stderr.rstrip("\n") == err_file.read_text(encoding="utf-8").rstrip("\n")
