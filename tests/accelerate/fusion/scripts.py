"""Running MATLAB code on a provider and reading what the fusion engine did."""

from __future__ import annotations

import io
import re
from pathlib import Path

from matfuse.accelerate.fusion import executor as fusion_executor
from matfuse.accelerate_api import override_provider

BENCH = Path(__file__).resolve().parents[3] / "benchmarks"
CHECKSUM = re.compile(r"checksum\s+(\S+)")


def run_script(provider, code: str) -> tuple[str, dict, dict]:
    """Output, provider telemetry and fusion stats of ``code`` on ``provider``."""
    from matfuse.vm.session import Session

    out = io.StringIO()
    with override_provider(provider):
        session = Session(stdout=out)
        provider.synchronize()
        provider.reset_telemetry()
        fusion_executor.STATS.__init__()
        session.eval(code)
        telemetry = provider.telemetry()
    return out.getvalue(), telemetry, fusion_executor.STATS.as_dict()


def checksum(text: str) -> float:
    return float(CHECKSUM.search(text).group(1))


def workload(name: str, **params: float) -> str:
    setup = " ".join(f"{k} = {v!r};" for k, v in params.items())
    return f"gpu = 1; {setup}\n" + (BENCH / name / f"{name}.m").read_text()
