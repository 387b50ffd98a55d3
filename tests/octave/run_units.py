"""Run GNU Octave's converted function tests in matfuse and report pass rates.

``units.json`` holds the units (plain MATLAB, each passing in Octave; see
``tools/octave_tests/``). Each unit runs in one process, in a fresh
``Session`` (fresh workspace) with ``support/`` on the path and a time limit.

    PYTHONPATH=src python3 -m tests.octave.run_units [--verbose] [--function NAME]
"""

from __future__ import annotations

import argparse
import io
import json
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

OCT_DIR = Path(__file__).resolve().parent
UNIT_TIME_LIMIT_S = 10.0


class UnitTimeout(BaseException):
    """A unit ran past its time limit (BaseException: MATLAB try/catch can't catch it)."""


@dataclass
class UnitResult:
    id: str
    function: str
    passed: bool
    message: str


def load_units() -> list[dict]:
    return json.loads((OCT_DIR / "units.json").read_text(encoding="utf-8"))


def _on_alarm(signum: int, frame: object) -> None:
    raise UnitTimeout()


def run_unit(unit: dict, time_limit_s: float = UNIT_TIME_LIMIT_S) -> UnitResult:
    """Run one unit in a fresh session; passed when it raises no error."""
    from matfuse.errors import MatlabError
    from matfuse.vm.session import Session

    session = Session(stdout=io.StringIO(), stderr=io.StringIO())
    support = str(OCT_DIR / "support").replace("'", "''")
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, time_limit_s)
    try:
        session.eval(f"addpath('{support}');")
        session.eval(unit["code"])
        return UnitResult(unit["id"], unit["function"], True, "")
    except MatlabError as exc:
        return UnitResult(unit["id"], unit["function"], False,
                          f"{exc.identifier}: {exc.message}")
    except UnitTimeout:
        return UnitResult(unit["id"], unit["function"], False, "timeout")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_all(units: list[dict]) -> list[UnitResult]:
    return [run_unit(unit) for unit in units]


def per_function(results: list[UnitResult]) -> dict[str, tuple[int, int]]:
    """Function -> (passed, total)."""
    table: dict[str, tuple[int, int]] = {}
    for r in results:
        passed, total = table.get(r.function, (0, 0))
        table[r.function] = (passed + r.passed, total + 1)
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run Octave's converted tests in matfuse.")
    parser.add_argument("--function", action="append", help="only units of this function")
    parser.add_argument("--verbose", action="store_true", help="print each failure")
    parser.add_argument("--markdown", action="store_true", help="per-function table as markdown")
    args = parser.parse_args(argv)
    units = load_units()
    if args.function:
        units = [u for u in units if u["function"] in args.function]
    results = run_all(units)
    if args.verbose:
        for r in results:
            if not r.passed:
                print(f"FAIL {r.id} [{r.function}] {r.message}")
    table = per_function(results)
    if args.markdown:
        print("| function | passed | units | rate |\n| --- | ---: | ---: | ---: |")
        for fn in sorted(table):
            p, t = table[fn]
            print(f"| `{fn}` | {p} | {t} | {100.0 * p / t:.1f}% |")
    else:
        for fn in sorted(table, key=lambda f: table[f][0] / table[f][1]):
            p, t = table[fn]
            if p < t:
                print(f"{fn:20s} {p:4d}/{t:<4d} {100.0 * p / t:5.1f}%")
    passed = sum(r.passed for r in results)
    print(f"TOTAL {passed}/{len(results)} = {100.0 * passed / max(1, len(results)):.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
