"""The IPython extension: ``%load_ext matfuse``, ``%matlab``, ``%%matlab -i -o``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("IPython")


@pytest.fixture(scope="module")
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "matfuse")
    yield ip
    InteractiveShell.clear_instance()


def test_line_and_cell_magics_move_variables(shell, capsys):
    shell.user_ns["a"] = np.array([[1.0, 2.0], [3.0, 4.0]])
    shell.run_cell_magic("matlab", "-i a -o b,c", "b = a * 2; c = sum(a(:));")
    np.testing.assert_allclose(shell.user_ns["b"], [[2, 4], [6, 8]])
    assert shell.user_ns["c"] == 10.0
    shell.run_line_magic("matlab", "disp(c + 1)")
    assert capsys.readouterr().out.endswith("11\n")


def test_errors_print_matlab_style(shell, capsys):
    shell.run_cell_magic("matlab", "-o z", "z = undefined_thing + 1;")
    err = capsys.readouterr().err
    assert "Unrecognized function or variable 'undefined_thing'." in err
    assert "Traceback" not in err
    assert "z" not in shell.user_ns


def test_missing_input_is_reported(shell, capsys):
    shell.run_cell_magic("matlab", "-i nothing_here", "disp(1)")
    assert "no Python variable named 'nothing_here'" in capsys.readouterr().err
