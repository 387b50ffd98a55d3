"""One timing process of ``compare.py``: start matfuse (the tree on
``PYTHONPATH``), run one script once (the cold run after start-up), then
warm re-runs in the same process; prints one JSON line.

    python benchmarks/redesign/_child.py SCRIPT.m PARAMS_JSON WARMUP ITERS

Uses only what both trees under comparison have: ``matfuse.Session`` and
the facade's ``ensure_provider``.
"""

from __future__ import annotations

import io
import json
import sys
import time


def main() -> int:
    script, params_json, warmup, iters = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    params = json.loads(params_json)
    started = time.perf_counter()
    import matfuse
    from matfuse.accelerate.facade import ensure_provider

    out = io.StringIO()
    session = matfuse.Session(stdout=out)
    provider = ensure_provider()
    startup = time.perf_counter() - started

    def once() -> float:
        out.seek(0)
        out.truncate()
        session.eval("clear")
        for name, value in params.items():
            session.set(name, float(value))
        begin = time.perf_counter()
        session.run_file(script)
        provider.synchronize()
        return time.perf_counter() - begin

    cold = once()
    output = out.getvalue()
    for _ in range(warmup):
        once()
    warm = [once() for _ in range(iters)]
    print(json.dumps({"startup": startup, "cold": cold, "warm": warm,
                      "provider": provider.name, "output": output[-2000:]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
