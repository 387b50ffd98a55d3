"""In-process before/after timing of interpreter idioms: each script of
``benchmarks/interp/`` run by two matfuse source trees, runs of the two
taking turns, each run a fresh process timing one ``Session.eval`` of the
script (CPU seconds of the loop; start-up and exit excluded).

    python benchmarks/interp/inprocess_ab.py BEFORE_SRC AFTER_SRC \\
        [--repeat 3] NAME [NAME ...]

``BEFORE_SRC``/``AFTER_SRC``: folders holding the ``matfuse`` package (for
example ``git archive <commit> src | tar -x -C /tmp/before`` gives
``/tmp/before/src``). Prints, per idiom, the median CPU seconds of each
tree and their ratio (after / before), as a markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# Both trees run with the OpenBLAS setting matfuse makes at import (idle
# BLAS threads stop spinning soon): CPU spent spinning after NumPy's import
# would otherwise count in the loop of a tree that lacks it.
BLAS_THREAD_TIMEOUT = "20"

# Run in the child: time one evaluation of the script, print CPU seconds.
CHILD = """
import io, sys, time
from matfuse.vm.session import Session
session = Session(stdout=io.StringIO(), stderr=io.StringIO())
start = time.process_time()
session.eval(sys.argv[1] + ";")
print(time.process_time() - start)
"""


def one_run(src: Path, name: str) -> float:
    """CPU seconds of one evaluation of script ``name`` by the tree ``src``."""
    done = subprocess.run([sys.executable, "-c", CHILD, name], capture_output=True, text=True,
                          cwd=HERE, env={**os.environ, "PYTHONPATH": str(src),
                                         "OPENBLAS_THREAD_TIMEOUT": BLAS_THREAD_TIMEOUT},
                          timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"{name} under {src} failed:\n{done.stderr}")
    return float(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("names", nargs="+")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| idiom | before CPU (s) | after CPU (s) | after / before |")
    print("|---|---:|---:|---:|")
    for name in args.names:
        before, after = [], []
        for _ in range(args.repeat):
            before.append(one_run(args.before.resolve(), name))
            after.append(one_run(args.after.resolve(), name))
        b, a = statistics.median(before), statistics.median(after)
        print(f"| {name} | {b:.3f} | {a:.3f} | {a / b:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
