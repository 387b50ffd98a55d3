"""The differential CI gate: generated MATLAB programs give on every
provider under test, in every execution mode (``runner.MODES``), what they
give on the host: the same class, size and complexity, values within
``bounds``, or the same error identifier.

CI runs ``conftest.CI_EXAMPLES`` programs per provider with a fixed seed
(``MATFUSE_TEST_PROVIDERS=inprocess,wgpu``: lavapipe); the GPU machine runs
a larger budget::

    MATFUSE_TEST_PROVIDERS=inprocess,wgpu,cuda MATFUSE_DIFF_EXAMPLES=2000 \\
        python3 -m pytest -q tests/differential

A failure prints the seed, the budget, the mode and a MATLAB reproducer.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.differential.compare import mismatches
from tests.differential.programs import Program, programs
from tests.differential.runner import MODES, REFERENCE, run


def modes_of(p) -> tuple[str, ...]:
    """Device modes that differ on ``p`` (the in-process provider neither
    fuses nor needs forcing to differ from the host: one gpuArray run)."""
    return ("gpuarray",) if p.name == "inprocess" else MODES


def check_program(program: Program, p, label: str = "") -> None:
    """Assert that ``program`` agrees with the host in every mode of ``p``."""
    want = run(program.source, program.inputs, program.outputs, REFERENCE, "host")
    for mode in modes_of(p):
        got = run(program.source, program.inputs, program.outputs, p, mode)
        problems = mismatches(program, want, got)
        assert not problems, (f"{label}provider {p.name}, mode {mode}:\n  "
                              + "\n  ".join(problems) + "\nprogram:\n" + program.matlab())


def test_generated_programs_agree_with_the_host(accel_provider, diff_budget):
    examples, chosen_seed = diff_budget
    label = f"differential seed {chosen_seed}, {examples} examples: "
    print(label)

    @seed(chosen_seed)
    @settings(max_examples=examples, deadline=None, database=None,
              phases=(Phase.explicit, Phase.generate, Phase.shrink),
              suppress_health_check=list(HealthCheck))
    @given(programs())
    def agree(program: Program) -> None:
        check_program(program, accel_provider, label)

    agree()
