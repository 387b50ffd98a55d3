"""The command line: subcommands and --help, arguments to function files,
-batch, SIGINT exit status, provider fallback warning, XDG_RUNTIME_DIR."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from matfuse.cli.main import SUBCOMMANDS, main, private_runtime_dir

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "matfuse", *args], capture_output=True, text=True,
                          timeout=180, env=full_env, cwd=cwd)


def test_help_lists_every_subcommand(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    for name in SUBCOMMANDS:
        assert f"  {name}" in text
    assert "-batch" in text


@pytest.mark.parametrize("name", ["run", "info", "calibrate", "bench"])
def test_each_subcommand_has_help(name: str, capsys) -> None:
    assert main([name, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: matfuse {name}")


def test_function_file_gets_char_arguments(tmp_path: Path) -> None:
    (tmp_path / "greet.m").write_text(
        "function greet(name, n)\nfprintf('%s|%s|%s|%d\\n', name, class(n), n, nargin);\nend\n")
    done = _cli(str(tmp_path / "greet.m"), "world", "3")
    assert done.returncode == 0 and done.stdout == "world|char|3|2\n"
    done = _cli("run", str(tmp_path / "greet.m"), "a b", "-x")
    assert done.stdout == "a b|char|-x|2\n"


def test_script_takes_no_arguments(tmp_path: Path) -> None:
    (tmp_path / "scr.m").write_text("disp(1)\n")
    done = _cli(str(tmp_path / "scr.m"), "extra")
    assert done.returncode == 1 and done.stdout == ""
    assert "Too many input arguments." in done.stderr


def test_batch_exit_status(capsys) -> None:
    assert main(["-batch", "disp(6 * 7)"]) == 0
    assert capsys.readouterr().out == "    42\n"
    assert main(["-batch", "x = [1 2]; x(5)"]) == 1
    assert "Index exceeds" in capsys.readouterr().err


def test_sigint_exits_130(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "matfuse", "-e", "disp('go'); while true, x = 1; end"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert proc.stdout.readline() == "go\n"
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err


def test_provider_fallback_warns(capsys) -> None:
    import importlib.util

    if importlib.util.find_spec("cupy") is not None:
        pytest.skip("CuPy is installed: the cuda provider starts")
    done = _cli("--provider", "cuda", "-e", "disp(1)")
    assert done.returncode == 0 and done.stdout == "     1\n"
    assert "Warning: acceleration provider 'cuda' is not available" in done.stderr
    assert "using 'inprocess'" in done.stderr


def test_private_runtime_dir(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    private_runtime_dir()
    path = os.environ["XDG_RUNTIME_DIR"]
    assert os.path.isdir(path) and os.stat(path).st_mode & 0o777 == 0o700
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/somewhere")
    private_runtime_dir()
    assert os.environ["XDG_RUNTIME_DIR"] == "/somewhere"


def test_closed_stdout_pipe_is_quiet(tmp_path: Path) -> None:
    script = tmp_path / "many.m"
    script.write_text("for k = 1:20000\n disp(k)\nend\n")
    proc = subprocess.run(f"{sys.executable} -m matfuse {script} | head -1", shell=True,
                          capture_output=True, text=True, timeout=180,
                          env=dict(os.environ, PYTHONPATH=str(ROOT / "src")))
    assert proc.stdout == "     1\n"
    assert "Error" not in proc.stderr and "Traceback" not in proc.stderr


def test_bench_provider_fallback_warns(tmp_path: Path) -> None:
    import importlib.util

    if importlib.util.find_spec("cupy") is not None:
        pytest.skip("CuPy is installed: the cuda provider starts")
    script = tmp_path / "b.m"
    script.write_text("x = 1;\n")
    done = _cli("bench", str(script), "--iters", "1", "--provider", "cuda", "--quiet")
    assert done.returncode == 0
    assert "Warning: acceleration provider 'cuda' is not available" in done.stderr
