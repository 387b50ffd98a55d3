"""Generated hostile programs never show Python to the user.

A fixed CI budget of cases from a fixed seed (printed on failure); set
``MATFUSE_FUZZ_CASES=10000`` (and optionally ``MATFUSE_FUZZ_SEED``) for the
full run, or run ``python3 -m tests.robustness.hostile_programs``.
"""

from __future__ import annotations

import os
import re

from tests.robustness.hostile_programs import ProgramGenerator, python_names_in, run_cases, \
    run_program

CI_CASES = 1500


def test_generated_programs_show_no_python() -> None:
    cases = int(os.environ.get("MATFUSE_FUZZ_CASES", CI_CASES))
    seed = int(os.environ.get("MATFUSE_FUZZ_SEED", 1))
    report = run_cases(cases, seed)
    shown = "\n".join(f"seed {f.seed}: {f.code[:200]!r}\n  -> {f.text.strip()[-300:]}"
                      for f in report.failures[:10])
    assert not report.failures, (f"{len(report.failures)} of {report.cases} programs "
                                 f"(seed {seed}) showed Python:\n{shown}")


def test_generator_is_deterministic_and_covers_builtins() -> None:
    generator = ProgramGenerator()
    assert generator.program(7) == generator.program(7)
    names = {name for name, _ in generator.builtins}
    called: set[str] = set()
    for seed in range(3000):
        called.update(re.findall(r"(\w+)\(", generator.program(seed)))
    assert len(called & names) > 0.9 * len(names)


def test_checker_flags_python_names() -> None:
    seen, caught, warnings, _ = run_program("x = 1 + ;")
    assert caught is not None and not python_names_in(seen) and not warnings
    assert python_names_in("matfuse:internalError\nInternal error (ValueError: x)") == [
        "ValueError", "internalError"]
