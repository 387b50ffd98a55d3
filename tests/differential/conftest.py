"""Options of the differential gate.

``--diff-examples=N`` (default: ``MATFUSE_DIFF_EXAMPLES`` or the CI budget)
sets how many generated programs run per provider; ``--diff-seed=S``
(default: ``MATFUSE_DIFF_SEED`` or a fixed seed) picks them. Both are
printed with every failure, so a failing run can be repeated exactly.
"""

from __future__ import annotations

import os

import pytest

#: generated programs per provider in CI (under a minute on lavapipe)
CI_EXAMPLES = 80
CI_SEED = 20_2026


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("differential")
    group.addoption("--diff-examples", type=int, default=None,
                    help="generated programs per provider (MATFUSE_DIFF_EXAMPLES)")
    group.addoption("--diff-seed", type=int, default=None,
                    help="seed of the generated programs (MATFUSE_DIFF_SEED)")


@pytest.fixture(scope="session")
def diff_budget(request: pytest.FixtureRequest) -> tuple[int, int]:
    """(examples, seed) of this run."""
    examples = request.config.getoption("--diff-examples")
    if examples is None:
        examples = int(os.environ.get("MATFUSE_DIFF_EXAMPLES", CI_EXAMPLES))
    seed = request.config.getoption("--diff-seed")
    if seed is None:
        seed = int(os.environ.get("MATFUSE_DIFF_SEED", CI_SEED))
    return examples, seed
