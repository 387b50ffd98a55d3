"""The ``matfuse`` command.

    matfuse FILE.m [args...]       run a script (or a function file's primary)
    matfuse run FILE.m [args...]   the same
    matfuse -e 'code'              run code
    matfuse bench FILE.m [...]     time a script (see matfuse.cli.bench)
    matfuse --version
    matfuse info [--json]          device, thresholds, last planner decisions
    matfuse calibrate [--refresh]  measure planner costs on this device
    matfuse                        interactive REPL (statements from stdin when not a TTY)

Options ``--provider NAME``, ``--stats`` and ``--explain`` are collected in a
``CliOptions`` (``.accelerate`` holds ``AccelerateInitOptions.from_env(...)``);
an explicit ``--provider`` starts that provider first; ``--stats`` calls
``matfuse.accelerate.facade.print_stats(stream)`` at exit when it exists.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from typing import Any

from matfuse import __version__
from matfuse.errors import MatlabError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="matfuse", description="Run MATLAB-language programs (array work on GPUs).")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("-e", "--eval", dest="code", metavar="CODE", help="run MATLAB code")
    parser.add_argument("--provider", metavar="NAME",
                        help="acceleration provider (inprocess, wgpu, cuda)")
    parser.add_argument("--stats", action="store_true", help="print acceleration statistics")
    parser.add_argument("--stats-json", metavar="PATH",
                        help="write acceleration statistics as JSON to PATH at exit")
    parser.add_argument("--explain", action="store_true", help="explain offload decisions")
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="FILE.m [args...] or: run FILE.m [args...]")
    return parser


@dataclass
class CliOptions:
    """What the command line asked for. ``accelerate`` is the accelerate
    layer's AccelerateInitOptions when that module is present."""

    provider: str | None = None
    stats: bool = False
    stats_json: str | None = None
    explain: bool = False
    accelerate: Any = None


def make_options(ns: argparse.Namespace) -> CliOptions:
    options = CliOptions(provider=ns.provider, stats=ns.stats, stats_json=ns.stats_json,
                         explain=ns.explain)
    if importlib.util.find_spec("matfuse.accelerate.options") is not None:
        module = importlib.import_module("matfuse.accelerate.options")
        init_options = getattr(module, "AccelerateInitOptions", None)
        if init_options is not None:
            options.accelerate = init_options.from_env(
                provider=ns.provider, stats=True if ns.stats else None)
    return options


def start_acceleration(options: CliOptions) -> None:
    """An explicit ``--provider`` starts that provider before the program runs."""
    if options.provider is None or options.accelerate is None:
        return
    from matfuse.accelerate.facade import initialize_acceleration_provider

    initialize_acceleration_provider(options.accelerate)


def report_error(err: MatlabError, stream: Any = None) -> None:
    """Print a MATLAB-style error report (no Python traceback)."""
    stream = stream if stream is not None else sys.stderr
    sys.stdout.flush()
    stream.write(err.report().rstrip("\n") + "\n")
    stream.flush()


def _finish_stats(options: CliOptions) -> None:
    """``--stats`` (or ``MATFUSE_STATS=1``) prints the accelerate layer's
    statistics to stderr; ``--stats-json PATH`` writes them as JSON."""
    wants_text = options.stats or bool(getattr(options.accelerate, "stats", False))
    if not wants_text and not options.stats_json:
        return
    from matfuse.accelerate import facade

    # Parallel counters exist only when parfor/parfeval ran (module loaded).
    parallel = sys.modules.get("matfuse.parallel.stats")
    if wants_text:
        facade.print_stats(sys.stderr)
        if parallel is not None:
            parallel.print_stats(sys.stderr)
    if options.stats_json:
        import json

        data = facade.stats_dict()
        if parallel is not None and parallel.STATS.used():
            data["parallel"] = parallel.STATS.as_dict()
        with open(options.stats_json, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, default=str)


def _start_explain(options: CliOptions) -> None:
    """``--explain``: the planner records its decisions (matfuse.cli.explain)."""
    if importlib.util.find_spec("matfuse.cli.explain") is None:
        return
    from matfuse.cli.explain import start_explain

    start_explain(options)


def _finish_explain(options: CliOptions) -> None:
    if importlib.util.find_spec("matfuse.cli.explain") is None:
        return
    from matfuse.cli.explain import finish_explain

    finish_explain(options, sys.stderr)


def run_file(path: str, options: Any) -> int:
    from matfuse.vm.session import Session

    if not os.path.isfile(path):
        sys.stderr.write(f"matfuse: cannot open '{path}': no such file\n")
        return 2
    session = Session(options=options)
    status = 0
    try:
        start_acceleration(options)
        _start_explain(options)
        session.run_file(path)
    except MatlabError as err:       # MatlabSyntaxError included: nothing ran
        report_error(err)
        status = 1
    finally:
        sys.stdout.flush()
    _finish_explain(options)
    _finish_stats(options)
    return status


def run_code(code: str, options: Any) -> int:
    from matfuse.vm.session import Session

    session = Session(options=options)
    status = 0
    try:
        start_acceleration(options)
        _start_explain(options)
        session.eval(code)
    except MatlabError as err:
        report_error(err)
        status = 1
    finally:
        sys.stdout.flush()
    _finish_explain(options)
    _finish_stats(options)
    return status


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:       # its own options: see matfuse.cli.bench
        from matfuse.cli.bench import bench_main

        return bench_main(list(argv[1:]))
    ns = build_parser().parse_args(argv)
    if ns.version:
        print(f"matfuse {__version__}")
        return 0
    try:
        options = make_options(ns)
    except MatlabError as err:
        report_error(err)
        return 2
    if ns.code is not None:
        return run_code(ns.code, options)
    args = list(ns.args)
    if args and args[0] in ("info", "calibrate"):
        from matfuse.cli.calibrate import run_calibrate
        from matfuse.cli.info import run_info

        return (run_info if args[0] == "info" else run_calibrate)(args[1:], options.accelerate)
    if args and args[0] == "run":
        args = args[1:]
        if not args:
            sys.stderr.write("matfuse run: missing FILE.m\n")
            return 2
    if args:
        return run_file(args[0], options)
    from matfuse.cli.repl import run_repl

    return run_repl(options)


if __name__ == "__main__":
    sys.exit(main())
