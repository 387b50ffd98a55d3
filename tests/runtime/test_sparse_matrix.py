"""The sparse class: construction, storage rules of operators, indexing and
assignment (small and large matrices), dispatch of other builtins, truth,
MAT-files, and MATLAB-style errors instead of Python exceptions."""

from __future__ import annotations

import io

import numpy as np
import pytest
import scipy.sparse as sp

from matfuse.errors import MatlabError
from matfuse.runtime.sparse_matrix import SparseMatrix
from matfuse.vm.session import Session


def run(code: str) -> Session:
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    session.eval(code)
    return session


def value(code: str, name: str = "x"):
    return run(code).interp.base[name]     # the MATLAB value itself (get converts)


def output(code: str) -> str:
    out = io.StringIO()
    Session(stdout=out, stderr=io.StringIO()).eval(code)
    return out.getvalue()


def error_of(code: str) -> MatlabError:
    with pytest.raises(MatlabError) as info:
        run(code)
    return info.value


def test_triplets_accumulate_duplicates_and_logical_values_combine() -> None:
    x = value("x = sparse([1 1 2], [1 1 3], [2 3 4]);")
    assert isinstance(x, SparseMatrix) and x.shape == (2, 3)
    assert x.full().tolist() == [[5.0, 0.0, 0.0], [0.0, 0.0, 4.0]]
    y = value("x = sparse([1 1], [1 1], [true true]);")
    assert y.class_name == "logical" and y.full().tolist() == [[True]]


def test_zeros_are_never_stored() -> None:
    x = value("x = sparse([1 2], [1 2], [0 5]);")
    assert x.nnz == 1 and x.shape == (2, 2)
    assert value("x = sparse([1 0; 0 1]) - speye(2);").nnz == 0


@pytest.mark.parametrize("expr, sparse", [
    ("S + S", True), ("S + F", False), ("S + 1", False), ("S .* F", True), ("S * 2", True),
    ("S * F", False), ("F * S", False), ("S * S", True), ("S > 0", True), ("S & F", True),
    ("S ./ 2", True), ("S - F", False), ("[S F]", True), ("S'", True), ("-S", True),
    ("S \\ F", False), ("S \\ S", True), ("abs(S)", True), ("cumsum(S)", True),
    ("sum(S)", True), ("full(S)", False), ("size(S)", False), ("find(S)", False),
])
def test_result_storage_follows_matlab(expr: str, sparse: bool) -> None:
    x = value(f"S = sparse([2 0; 0 4]); F = [1 2; 3 4]; x = {expr};")
    assert isinstance(x, SparseMatrix) is sparse


def test_values_match_the_full_computation() -> None:
    s = run("A = [1 0 2; 0 0 3; 4 5 0]; S = sparse(A); B = [1 2 3; 4 5 6; 7 8 10];"
            "d1 = full(S .* B) - A .* B; d2 = (S + B) - (A + B); d3 = full(S * S) - A * A;"
            "d4 = (S * B) - A * B; d5 = full(S') - A'; d6 = full(S(2:3, [1 3])) - A(2:3, [1 3]);"
            "d7 = full(S(:)) - A(:); d8 = full(S > 1) - (A > 1);")
    for k in range(1, 9):
        assert not np.any(np.asarray(s.get(f"d{k}"))), k


def test_nan_and_inf_follow_full_arithmetic() -> None:
    x = value("x = sparse([0 1]) .* [Inf 2];")
    assert np.isnan(x.full()[0, 0]) and x.full()[0, 1] == 2.0


def test_assignment_grows_and_deletes() -> None:
    x = value("x = speye(2); x(3, 4) = 5;")
    assert x.shape == (3, 4) and x.full()[2, 3] == 5.0
    y = value("x = speye(3); x(2, :) = [];")
    assert y.shape == (2, 3)
    z = value("x = sparse([1 2 3]); x(2) = [];")
    assert z.full().tolist() == [[1.0, 3.0]]


def test_large_matrices_are_never_made_full() -> None:
    # a full 1e6-by-1e6 matrix would be MATLAB:array:SizeLimitExceeded
    s = run("S = speye(1e6); S(1e6, 2) = 3; S(5, :) = []; t = sum(S); k = find(S(:, 2));"
            "y = S * 2; z = S'; n = nnz(S); e = S(10, 10); w = [S; S]; q = S .* S;"
            "mx = max(S); mn = min(S, [], 2); a = any(S); d = diag(S); t = tril(S);"
            "S(3) = 7; S([1 1000001]) = [0 5];")
    assert s.get("n") == 1e6 and s.get("S").shape == (999999, 1000000)
    assert s.get("w").shape == (1999998, 1000000)


def test_assignment_into_a_full_matrix_stays_full() -> None:
    x = value("x = zeros(2); x(1, :) = sparse([1 2]);")
    assert isinstance(x, np.ndarray) and x.tolist() == [[1.0, 2.0], [0.0, 0.0]]


def test_other_builtins_run_on_the_full_matrix() -> None:
    s = run("S = sparse([3 0 1]); m = mean(S); c = cumsum(S); t = num2str(full(S));"
            "st = struct('a', S); u = unique(S); k = issparse(st.a);")
    assert sp.issparse(s.get("c"))
    assert s.get("k") is True


def test_truth_of_sparse_conditions() -> None:
    assert output("if sparse([1 2]), disp('y'), end") == "y\n"
    assert output("if sparse([1 0]), disp('y'), else, disp('n'), end") == "n\n"
    assert output("if sparse(1) && true, disp('y'), end") == "y\n"


def test_display_format() -> None:
    assert output("S = sparse([1 2], [1 3], [5 6])") == \
        "S =\n\n   (1,1)        5\n   (2,3)        6\n\n"
    assert output("A = sparse(2, 3)") == "A =\n\n   All zero sparse: 2×3\n\n"
    assert output("disp(sparse([0 0.5]))") == "   (1,2)       0.5000\n"


def test_mat_files_round_trip(tmp_path) -> None:
    path = str(tmp_path / "s.mat").replace("'", "''")
    for flag in ("", ", '-v7.3'"):
        s = run(f"S = sparse([1 3], [2 2], [4 -1], 3, 3); L = sparse([true false]);"
                f"C = sparse([1i 0]); save('{path}', 'S', 'L', 'C'{flag}); clear S L C;"
                f"load('{path}');")
        S, L, C = (s.get(n) for n in "SLC")       # scipy sparse matrices
        assert sp.issparse(S) and S.toarray()[2, 1] == -1.0 and S.shape == (3, 3)
        assert L.dtype == np.bool_ and C.dtype.kind == "c"


@pytest.mark.parametrize("code, identifier", [
    ("sparse(int8(1))", "MATLAB:sparse:invalidClass"),
    ("sparse(ones(2,2,2))", "MATLAB:sparse:NDArray"),
    ("sparse([1 2], [1 2 3], 1)", "MATLAB:sparse:vectorLengthMismatch"),
    ("sparse(2, 2) * sparse(3, 3)", "MATLAB:innerdim"),
    ("x = speye(2); x(1, 1, 2) = 1;", "MATLAB:sparse:NDArray"),
    ("gpuArray(speye(2))", "MATLAB:sparse:gpuArrayUnsupported"),
    ("speye(2) + int8(1)", "MATLAB:sparse:mixedClasses"),
    ("x = speye(2); x(5)", "MATLAB:badsubscript"),
    ("x = speye(2); x.a", "MATLAB:structRefFromNonStruct"),
    ("if sparse(NaN), end", "MATLAB:nologicalnan"),
])
def test_errors_are_matlab_errors(code: str, identifier: str) -> None:
    assert error_of(code).identifier == identifier


def test_for_loop_assigns_sparse_columns() -> None:
    assert output("for c = sparse([1 0; 0 2]), disp(issparse(c)), disp(full(c')), end") == \
        "   1\n     1     0\n\n   1\n     0     2\n\n".replace("\n\n", "\n")


def test_whos_reports_sparse_storage() -> None:
    s = run("S = speye(10000); w = whos('S'); b = w.bytes; f = w.sparse;")
    assert s.get("b") == 240008.0 and s.get("f") is True


def test_backslash_band_and_general_solvers_agree_with_the_full_solver() -> None:
    s = run("n = 300; e = ones(n, 1); A = spdiags([-e 2*e -e], -1:1, n, n);"
            "B = A + sparse(1, n, 0.5, n, n); b = (1:n)';"
            "d1 = norm(A \\ b - full(A) \\ b); d2 = norm(B \\ b - full(B) \\ b);"
            "y = A \\ sparse(b); k = issparse(y);")
    assert s.get("d1") < 1e-8 and s.get("d2") < 1e-8 and s.get("k") is True


def test_singular_sparse_system_warns() -> None:
    # the warning takes the route of the full solver's (emit_warning): the
    # session's stderr and lastwarn, and warning('off', id) silences it
    session = run("x = sparse([1 0; 0 0]) \\ [1; 1]; [m, id] = lastwarn;")
    assert "singular to working precision" in session.interp.err.getvalue()
    assert session.get("id") == "MATLAB:singularMatrix"
    quiet = run("warning('off', 'MATLAB:singularMatrix'); x = sparse([1 0; 0 0]) \\ [1; 1];")
    assert quiet.interp.err.getvalue() == ""


def test_python_api_converts_scipy_sparse_both_ways() -> None:
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    session.set("A", sp.csc_matrix(np.array([[1.0, 0.0], [0.0, 2.0]])))
    session.eval("k = issparse(A); B = A * 2;")
    assert session.get("k") is True and session.get("B").toarray().tolist() == [[2, 0], [0, 4]]
