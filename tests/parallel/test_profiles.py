"""Cluster profiles (dask-jobqueue): settings and job scripts, checked
without a batch scheduler."""

from __future__ import annotations

import pytest

from matfuse.errors import MatlabError
from matfuse.parallel.profiles import cluster_settings, job_script


def test_defaults_and_config_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = cluster_settings("slurm")
    assert settings["cores"] == 1 and settings["processes"] == 1
    assert any("PYTHONPATH" in line for line in settings["job_script_prologue"])
    (tmp_path / "matfuse-cluster.yaml").write_text(
        "slurm:\n  queue: gpu\n  cores: 4\n  job_extra_directives: ['--gres=gpu:1']\n")
    settings = cluster_settings("slurm")
    assert settings["queue"] == "gpu" and settings["cores"] == 4


@pytest.mark.parametrize("profile, marker", [("slurm", "#SBATCH"), ("pbs", "#PBS")])
def test_job_script(profile, marker, tmp_path, monkeypatch):
    pytest.importorskip("dask_jobqueue")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "matfuse-cluster.yaml").write_text(
        f"{profile}:\n  queue: batch\n  memory: 8GB\n")
    text = job_script(profile)
    assert marker in text
    assert "batch" in text
    assert "distributed.cli.dask_worker" in text or "dask-worker" in text or "dask worker" in text


def test_unknown_profile():
    with pytest.raises(MatlabError) as info:
        cluster_settings("kubernetes")
    assert info.value.identifier == "parallel:cluster:InvalidProfile"
