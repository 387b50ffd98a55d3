"""Faulty cache files never make ``matfuse info``, ``calibrate`` or a run
fail or hang: non-UTF-8 text, folders, FIFOs and files in place of folders,
read-only or full folders, and JSON nested too deeply to parse."""

from __future__ import annotations

import json
import os

import pytest

from matfuse.accelerate.facade import shutdown_acceleration
from matfuse.accelerate.planner import calibrate as cal
from matfuse.accelerate.planner import last_run, offload
from matfuse.accelerate.planner.calibrate import calibration_path, device_identity, load_calibration
from matfuse.accelerate.providers.inprocess import InProcessProvider
from matfuse.cli.main import main
from matfuse.runtime import atomic_files

DEEP_JSON = "[" * 100000 + "]" * 100000


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("MATFUSE_PROVIDER", "inprocess")
    monkeypatch.setattr(cal, "calibration_dir", lambda: tmp_path / "planner")
    small = cal.calibrate
    monkeypatch.setattr(cal, "calibrate", lambda p: small(p, n=4096, matmul_n=16))
    cal._loaded.clear()
    shutdown_acceleration()
    offload.reset()
    yield
    shutdown_acceleration()
    offload.reset()
    cal._loaded.clear()


def _calibration_file(tmp_path):
    return calibration_path(device_identity(InProcessProvider()), tmp_path / "planner")


def test_deeply_nested_calibration_is_ignored_with_a_warning(tmp_path):
    path = _calibration_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(DEEP_JSON)
    warnings: list[str] = []
    assert load_calibration(InProcessProvider(), tmp_path / "planner", warnings.append) is None
    assert warnings and "nested too deeply" in warnings[0]


@pytest.mark.parametrize("fault", ["fifo", "folder", "garbage", "deep", "huge-created"])
def test_info_survives_a_faulty_calibration_file(tmp_path, capsys, fault):
    path = _calibration_file(tmp_path)
    path.parent.mkdir(parents=True)
    if fault == "fifo":
        os.mkfifo(path)
    elif fault == "folder":
        path.mkdir()
    elif fault == "garbage":
        path.write_bytes(b"\xff\xfe\x00garbage")
    elif fault == "deep":
        path.write_text(DEEP_JSON)
    else:
        path.write_text(json.dumps({"format": cal.FORMAT_VERSION, "created": 10 ** 400,
                                    "device": device_identity(InProcessProvider())}))
    assert main(["info", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["auto_offload"]["calibration_file"] is None
    assert "Traceback" not in captured.err


def test_calibrate_reports_a_file_in_place_of_the_cache_folder(tmp_path, capsys):
    (tmp_path / "planner").write_text("not a folder")
    assert main(["calibrate"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("matfuse calibrate: cannot save the calibration to ")
    assert (tmp_path / "planner").read_text() == "not a folder"


def test_calibrate_reports_a_read_only_cache(tmp_path, capsys, monkeypatch):
    def refuse(path, data):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(atomic_files, "write_bytes_atomic", refuse)
    assert main(["calibrate"]) == 1
    assert "Permission denied" in capsys.readouterr().err


def test_last_decisions_fifo_neither_hangs_info_nor_the_exit_write(tmp_path, capsys):
    path = tmp_path / "planner" / "last-decisions.json"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert last_run.load_last_decisions(path) == {}
    assert "not a regular file" in capsys.readouterr().err
    last_run.save_last_decisions(_empty_log(), path)
    assert json.loads(path.read_text())["counts"] == {}


def test_last_decisions_replace_a_symlink_instead_of_following_it(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    path = tmp_path / "planner" / "last-decisions.json"
    path.parent.mkdir(parents=True)
    path.symlink_to(victim)
    last_run.save_last_decisions(_empty_log(), path)
    assert victim.read_text() == "keep me"
    assert not path.is_symlink()


def _empty_log():
    from matfuse.accelerate.planner.decisions import DecisionLog

    return DecisionLog()
