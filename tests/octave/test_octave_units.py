"""GNU Octave's function tests (converted to plain MATLAB, each passing in
Octave itself) run in matfuse: the pass count may only go up.

Numbers and how they were measured: docs/benchmarks/octave-tests.md. After
an improvement, raise ``PASSED_AT_LEAST`` to the new count (ratchet).
"""

from __future__ import annotations

from tests.octave.run_units import load_units, run_all

# Measured with `python3 -m tests.octave.run_units` (see the docs page).
PASSED_AT_LEAST = 2936
UNITS = 3043


def test_corpus_is_the_measured_one() -> None:
    assert len(load_units()) == UNITS


def test_octave_units_pass_rate_does_not_drop() -> None:
    results = run_all(load_units())
    passed = sum(r.passed for r in results)
    failures = [f"{r.id} [{r.function}] {r.message}" for r in results if not r.passed]
    assert passed >= PASSED_AT_LEAST, (
        f"{passed}/{len(results)} Octave units pass, fewer than the recorded {PASSED_AT_LEAST}; "
        "failures:\n" + "\n".join(failures[:80]))
