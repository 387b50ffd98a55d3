"""Octave as a peer: runs the same ``.m`` script, warm, inside one Octave process."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from typing import Any

from benchmarks.impls import NOT_APPLICABLE
from benchmarks.workloads import OCTAVE_SHIMS, Params, Workload

CHECKSUM = re.compile(r"checksum\s+(\S+)")
RUN_MARK = "@@run@@\n"
OUTPUT_KEEP = 4000     # characters of a run's output kept for text parity


def parse_checksum(text: str) -> float | None:
    """The value after ``checksum`` in a script's output (None when absent)."""
    match = CHECKSUM.search(text)
    if match is None:
        return None
    try:
        return float(match.group(1))
    except ValueError:
        return None


def run_octave(work: Workload, params: Params, iters: int, warmup: int) -> dict[str, Any]:
    """Octave runs the same .m; times come from tic/toc inside one Octave
    process (warm), the output of the last run is kept. The script is called
    by name from its own folder (``run()`` would add ~20 ms of path work)."""
    if work.octave_gap:
        return {"error": f"{NOT_APPLICABLE}: {work.octave_gap}"}
    setup = " ".join(f"{k} = {float(v)!r};" for k, v in params.items())
    total = iters + warmup
    body = (f"addpath('{OCTAVE_SHIMS}'); ts__ = zeros(1, {total});"
            f" for k__ = 1:{total}, clear -x ts__ k__; {setup} gpu = 0;"
            f" fprintf('{RUN_MARK.strip()}\\n'); t0__ = tic; {work.script.stem};"
            f" ts__(k__) = toc(t0__); end;"
            f" fprintf('\\n{RUN_MARK.strip()}\\ntimes %s\\n',"
            f" sprintf('%.9f ', ts__({warmup + 1}:end)));")
    env = dict(os.environ, XDG_RUNTIME_DIR=tempfile.gettempdir())
    proc = subprocess.run(["octave", "--no-gui", "-q", "--eval", body], capture_output=True,
                          text=True, env=env, timeout=3600, cwd=work.script.parent)
    segments = proc.stdout.split(RUN_MARK)
    times_line = re.search(r"times\s+(.*)", segments[-1]) if len(segments) > 2 else None
    if proc.returncode != 0 or times_line is None:
        return {"error": (proc.stderr or proc.stdout)[-600:]}
    # the last run's output ends with the newline printed before the final mark
    text = segments[-2][:-1] if segments[-2].endswith("\n") else segments[-2]
    return {"checksum": parse_checksum(text), "output": text[-OUTPUT_KEEP:],
            "times": [float(t) for t in times_line.group(1).split()]}
