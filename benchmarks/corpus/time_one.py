"""Time one corpus script in this process after start-up (what a user sees
once ``matfuse`` has started): the provider opens first, untimed; then the
script runs once (``cold``: parse, compile, kernel builds included) and then
``--warm-runs`` more times (default 5; ``warm``: their median, since one run
of a few milliseconds is mostly noise). Prints one JSON line.

    python -m benchmarks.corpus.time_one SCRIPT.m PROVIDER [--warm-runs=N] [NAME=VALUE ...]

Auto-offload is forced for device providers (thresholds at 1), as in the
corpus check; ``NAME:auto`` keeps the default offload decisions (the
provider's calibrated thresholds), as a user runs a script; ``host`` runs the in-process provider with offload off and
every ``gpuArray`` call still honoured by the in-process provider.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time


def main(argv: list[str]) -> int:
    warm_runs = 5
    options = [a for a in argv if a.startswith("--warm-runs=")]
    if options:
        warm_runs = max(1, int(options[-1].split("=", 1)[1]))
    script, provider, *defines = [a for a in argv if a not in options]
    if provider == "host":
        os.environ["MATFUSE_AUTO_OFFLOAD"] = "0"
        provider = "inprocess"
    elif provider.endswith(":auto"):
        provider = provider.removesuffix(":auto")
    else:
        from benchmarks.corpus.run_corpus import FORCED

        os.environ.update(FORCED)
    os.environ["MATFUSE_PROVIDER"] = provider
    from matfuse import Session

    out = io.StringIO()
    session = Session(stdout=out)
    session.eval("x__ = gpuArray(1); x__ = gather(x__ + 1); clear x__")  # opens the provider
    pre = "".join(f"{d}; " for d in defines)
    times = []
    for _ in range(1 + warm_runs):
        out.seek(0)
        out.truncate()
        start = time.perf_counter()
        session.eval(f"{pre}run('{os.path.abspath(script)}');")
        times.append(time.perf_counter() - start)
    print(json.dumps({"script": os.path.basename(script), "provider": provider,
                      "cold_s": times[0], "warm_s": sorted(times[1:])[len(times[1:]) // 2],
                      "warm_runs": times[1:], "output": out.getvalue().strip()}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
