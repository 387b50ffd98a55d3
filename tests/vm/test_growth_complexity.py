"""Growth idioms stay linear: doubling n must not more than triple the time
(an O(n^2) copy per append would quadruple it). Sizes keep each case to a
fraction of a second; the best of a few runs absorbs a noisy machine."""

from __future__ import annotations

import io
import time

import pytest

from matfuse.vm.session import Session

GROWTH_IDIOMS = {
    "cell end+1": "c = {}; for k = 1:N, c{end+1} = k; end",
    "struct array growth": "s = struct('a', {}); for k = 1:N, s(k).a = k; s(k).b = -k; end",
    "char concatenation": "s = ''; for k = 1:N, s = [s 'ab']; end",
    "numeric end+1": "x = []; for k = 1:N, x(end+1) = k; end",
    "numeric concatenation": "x = []; for k = 1:N, x = [x k]; end",
    "dynamic fields": "r = struct(); for k = 1:N, r.(sprintf('f%d', k)) = k; end",
    "nested cell in struct": "s.c = {}; for k = 1:N, s.c{end+1} = k; end",
    "field of struct array element": "s(1).v = []; for k = 1:N, s(1).v(end+1) = k; end",
    "matrix rows end+1": "M = zeros(0, 64); row = 1:64; for k = 1:N, M(end+1, :) = row; end",
    "dynamic field reads": "r = struct(); for k = 1:N, r.(sprintf('f%d', k)) = k; end; "
                           "t = 0; for k = 1:N, t = t + r.(sprintf('f%d', k)); end",
    # Element updates of preallocated containers: in place, not a copy each.
    "cell fill": "c = cell(1, N); for k = 1:N, c{k} = k; end",
    "numeric fill": "x = zeros(1, N); for k = 1:N, x(k) = k; end",
    # Growth one past the end by a plain subscript (no ``end``).
    "numeric index growth": "x = []; for k = 1:N, x(k) = k; end",
    "cell index growth": "c = {}; for k = 1:N, c{k} = k; end",
    "cell of structs growth": "c = {}; for k = 1:N, c{k}.h = k; end",
    "struct array element update": "s = struct('v', num2cell(1:N)); "
                                   "for k = 1:N, s(k).v = s(k).v * 2; end",
    "nested struct-cell element update": "s = struct('c', {{zeros(1, N)}}); "
                                         "for k = 1:N, s(1).c{1}(k) = k; end",
    "cell of structs field update": "c = cell(1, N); for k = 1:N, c{k} = struct('h', 0); end; "
                                    "for k = 1:N, c{k}.h = c{k}.h + 1; end",
    "containers.Map inserts": "m = containers.Map('KeyType', 'double', 'ValueType', 'any'); "
                              "for k = 1:N, m(k) = k; end",
}

SIZES = {"dynamic fields": 1500, "dynamic field reads": 4000}
DEFAULT_N = 4000


def _seconds(code: str, n: int) -> float:
    """Best of three runs of ``code`` with N = n, compiled once beforehand."""
    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    text = code.replace("N", str(n))
    session.eval(text)  # warm: compile and resolve
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        session.eval(text)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("name", sorted(GROWTH_IDIOMS))
def test_doubling_n_at_most_triples_the_time(name: str) -> None:
    n = SIZES.get(name, DEFAULT_N)
    code = GROWTH_IDIOMS[name]
    ratios = []
    for _attempt in range(3):
        small = _seconds(code, n)
        large = _seconds(code, 2 * n)
        ratios.append(large / small)
        if ratios[-1] <= 3.0:
            break
    assert min(ratios) <= 3.0, f"{name}: time ratio for 2n vs n was {ratios}"


def test_growth_stays_linear_once_device_hints_are_active(monkeypatch) -> None:
    """Liveness hints (active once any gpuArray exists) must not keep the
    old host value alive during an assignment: that defeats in-place growth."""
    from matfuse.runtime import hints

    monkeypatch.setattr(hints, "ACTIVE", True)
    code = GROWTH_IDIOMS["cell end+1"]
    ratios = []
    for _attempt in range(3):
        ratios.append(_seconds(code, 2 * DEFAULT_N) / _seconds(code, DEFAULT_N))
        if ratios[-1] <= 3.0:
            break
    assert min(ratios) <= 3.0, f"time ratio for 2n vs n was {ratios}"
