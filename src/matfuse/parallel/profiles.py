"""Cluster profiles: ``parpool('slurm', n)`` / ``parpool('pbs', n)`` start
matfuse workers through dask-jobqueue.

Settings come from a small config file, ``matfuse-cluster.yaml`` in the
current folder (or the file named by ``parpool('slurm', n, 'file.yaml')``),
whose keys are dask-jobqueue's cluster arguments, for example::

    slurm:
      queue: gpu
      account: myproject
      cores: 16
      memory: 64GB
      walltime: "01:00:00"
      job_extra_directives: ["--gres=gpu:1"]

Missing keys get the defaults below (one single-threaded worker process
per job, each importing this matfuse). ``cluster_settings`` builds the
arguments without starting anything, so they can be checked (and
``job_script`` previewed) without a scheduler.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from matfuse.errors import MatlabError

PROFILES = {"slurm": "SLURMCluster", "pbs": "PBSCluster", "sge": "SGECluster",
            "lsf": "LSFCluster"}
CONFIG_FILE = "matfuse-cluster.yaml"

_DEFAULTS: dict[str, Any] = {
    "cores": 1,
    "processes": 1,
    "memory": "4GB",
    "walltime": "01:00:00",
}


def _read_config(path: str | None, profile: str) -> dict[str, Any]:
    path = path or (CONFIG_FILE if os.path.isfile(CONFIG_FILE) else None)
    if path is None:
        return {}
    try:
        import yaml
    except ImportError:
        raise MatlabError("matfuse:parallel:yamlMissing",
                          "Reading a cluster profile needs PyYAML: "
                          "pip install 'matfuse[parallel]'.") from None
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh) or {}
    except OSError as exc:
        raise MatlabError("parallel:cluster:ProfileNotFound",
                          f"Cannot read the cluster profile file '{path}': {exc.strerror}.") from None
    section = data.get(profile, {})
    if not isinstance(section, dict):
        raise MatlabError("parallel:cluster:InvalidProfile",
                          f"The '{profile}' section of '{path}' must be a mapping.")
    return section


def cluster_settings(profile: str, config_path: str | None = None) -> dict[str, Any]:
    """The dask-jobqueue arguments for ``profile`` (no cluster is started)."""
    if profile not in PROFILES:
        raise MatlabError("parallel:cluster:InvalidProfile",
                          f"Unknown cluster profile '{profile}'; expected one of "
                          f"{', '.join(sorted(PROFILES))}.")
    settings = dict(_DEFAULTS)
    settings.update(_read_config(config_path, profile))
    settings.setdefault("python", sys.executable)
    src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    prologue = list(settings.get("job_script_prologue", []))
    prologue.append(f"export PYTHONPATH={src}:$PYTHONPATH")
    settings["job_script_prologue"] = prologue
    # Each worker process runs one task at a time (one interpreter, one GPU).
    settings.setdefault("worker_extra_args", ["--nthreads", "1"])
    settings.setdefault("scheduler_options", {"dashboard_address": ":0"})
    return settings


def _cluster_class(profile: str) -> Any:
    try:
        import dask_jobqueue
    except ImportError:
        raise MatlabError("matfuse:parallel:jobqueueMissing",
                          f"The '{profile}' profile needs dask-jobqueue: "
                          "pip install 'matfuse[parallel]'.") from None
    return getattr(dask_jobqueue, PROFILES[profile])


def job_script(profile: str, config_path: str | None = None) -> str:
    """The batch script one worker job would be submitted with."""
    cls = _cluster_class(profile)
    cluster = cls(**cluster_settings(profile, config_path))
    try:
        return cluster.job_script()
    finally:
        cluster.close()


def jobqueue_cluster(profile: str, workers: int | None,
                     config_path: str | None = None) -> Any:
    """A started dask-jobqueue cluster with ``workers`` worker jobs."""
    cls = _cluster_class(profile)
    cluster = cls(**cluster_settings(profile, config_path))
    cluster.scale(workers or 1)
    return cluster
