"""input: an expression evaluated in the caller's workspace, 's' text, an
empty line as [] (read from standard input through the command line)."""

from __future__ import annotations

import subprocess
import sys


def test_input_reads_expressions_and_text() -> None:
    code = ("x = input('n? '); disp(x*2); s = input('', 's'); disp(upper(s)); a = 5; "
            "y = input('expr: '); disp(y); e = input('empty: '); disp(size(e))")
    done = subprocess.run([sys.executable, "-m", "matfuse", "-e", code],
                          input="21\nabc\na+1\n\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "n?     42\nABC\nexpr:      6\nempty:      0     0\n"


def test_input_rejects_other_options() -> None:
    done = subprocess.run([sys.executable, "-m", "matfuse", "-e", "input('p', 'x')"],
                          input="1\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "must be 's'" in done.stderr
