"""The builtin index is current, and builtins load lazily on first lookup."""

import os
import subprocess
import sys

import matfuse

_SRC = os.path.dirname(os.path.dirname(os.path.abspath(matfuse.__file__)))


def _run(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=_SRC)
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=True, timeout=300)
    return result.stdout


def test_committed_index_matches_the_builtin_modules():
    # A fresh process: the index is built by importing the modules one by one.
    generated = _run("import sys\n"
                     "from matfuse.runtime.builtin_index_build import index_source\n"
                     "sys.stdout.write(index_source())")
    path = os.path.join(_SRC, "matfuse", "runtime", "builtin_index.py")
    with open(path, encoding="utf-8") as handle:
        committed = handle.read()
    assert committed == generated, (
        "builtin_index.py is out of date: run python3 -m matfuse.runtime.builtin_index_build")


def test_a_session_loads_only_the_builtin_modules_it_uses():
    out = _run("import sys\n"
               "from matfuse.vm.session import Session\n"
               "s = Session()\n"
               "loaded = lambda: sorted(m for m in sys.modules\n"
               "                        if m.startswith('matfuse.runtime.builtins.'))\n"
               "before = loaded()\n"
               "s.eval('x = 1;')\n"
               "print(len(loaded()) - len(before))\n"
               "s.eval('y = colon(1, 3);')\n"
               "print('matfuse.runtime.builtins.ranges' in loaded())\n")
    assert out.split() == ["0", "True"]


def test_the_later_module_declaration_wins_whatever_the_load_order():
    # colon is declared by operators and again by ranges (load_all's order: ranges wins).
    out = _run("from matfuse.runtime import registry\n"
               "registry.lookup('linspace')\n"
               "registry.lookup('plus')\n"
               "lazy = registry.lookup('colon').impl\n"
               "registry.load_all()\n"
               "print(lazy is registry.lookup('colon').impl, lazy.__module__)\n")
    assert out.split() == ["True", "matfuse.runtime.builtins.ranges"]


def test_time_array_methods_load_with_their_first_dispatch():
    # char of a datetime is a method registered by a builtin module
    # (time_method), not a builtin of its own: its module loads lazily too.
    out = _run("import io\n"
               "from matfuse.vm.session import Session\n"
               "buf = io.StringIO()\n"
               "Session(stdout=buf).eval(\"fprintf('%s\\\\n', char(datetime(2020,1,15) + 1));\")\n"
               "print(buf.getvalue().strip())\n")
    assert out.strip() == "16-Jan-2020"


def test_sparse_methods_and_indexing_load_for_a_matrix_not_made_by_sparse(tmp_path):
    # A sparse matrix read from a MAT-file: no sparse-making builtin ran, so
    # its methods (nnz, find) and its indexing load on first use; SciPy's
    # sparse package is not imported before that.
    from scipy.io import savemat
    from scipy.sparse import csc_matrix

    path = tmp_path / "s.mat"
    savemat(str(path), {"S": csc_matrix([[5.0, 0.0, 0.0], [0.0, 0.0, 6.0]])})
    out = _run("import io, sys\n"
               "from matfuse.vm.session import Session\n"
               "buf = io.StringIO()\n"
               "s = Session(stdout=buf)\n"
               "s.eval('x = 1;')\n"
               "print('scipy.sparse' in sys.modules)\n"
               f"s.eval(\"load('{path}'); S(1,2) = 4; fprintf('%d %d\\\\n', nnz(S), full(S(2,3)));\")\n"
               "print(buf.getvalue().strip())\n")
    assert out.split("\n")[:2] == ["False", "3 6"]
