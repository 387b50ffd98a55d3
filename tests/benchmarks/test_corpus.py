"""The corpus of scripts in many styles (benchmarks/corpus) on wgpu with
auto-offload forced, each checked against the in-process run.

The generality goal is every script passing: the same result, no host
fallback, transfers within the script's budget. Until then
``known_gaps.json`` records what each failing script still lacks, and this
test fails when any script does worse than recorded (a ratchet: record
improvements with ``python -m benchmarks.corpus.run_corpus --write-gaps``).
"""

from __future__ import annotations

import json

import pytest

from benchmarks.corpus import run_corpus
from tests.wgpu_required import no_adapter


@pytest.fixture(scope="module")
def verdicts():
    from matfuse.accelerate.providers.wgpu.device import open_device
    from matfuse.accelerate_api import Unsupported

    try:
        open_device()
    except Unsupported as why:
        no_adapter(str(why))
    return {v.script: v for v in run_corpus.check_all("wgpu", {}, jobs=2)}


def test_corpus_headers_declare_budgets():
    assert len(run_corpus.scripts()) >= 40
    for path in run_corpus.scripts():
        run_corpus.budget_of(path)


def test_corpus_on_wgpu_no_worse_than_recorded(verdicts):
    gaps = json.loads(run_corpus.GAPS.read_text())
    worse = {name: run_corpus.regressions(v, gaps) for name, v in verdicts.items()}
    worse = {k: w for k, w in worse.items() if w}
    print(run_corpus.table(list(verdicts.values())))
    assert not worse, worse


def test_no_known_gaps_remain():
    # every script passes: same result, no host fallback, within budget
    assert json.loads(run_corpus.GAPS.read_text()) == {}


def test_same_output_compares_numbers_within_tolerance():
    assert run_corpus.same_output("a 1.0 NaN", "a 1.00001 NaN", 1e-4)
    assert not run_corpus.same_output("a 1.0", "a 1.1", 1e-4)
    assert not run_corpus.same_output("single", "double", 1)
