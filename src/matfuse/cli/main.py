"""The ``matfuse`` command.

    matfuse FILE.m [args...]       run a script, or a function file's primary
                                   function with args passed as char vectors
    matfuse run FILE.m [args...]   the same
    matfuse -batch 'code'          run code non-interactively (exit 1 on error)
    matfuse -e 'code'              the same
    matfuse bench FILE.m [...]     time a script (see matfuse.cli.bench)
    matfuse info [--json]          device, thresholds, last planner decisions
    matfuse calibrate [--refresh]  measure planner costs on this device
    matfuse kernel install [--user]  install the Jupyter kernel spec
    matfuse --version
    matfuse                        interactive REPL (statements from stdin when not a TTY)

Subcommands are declared in ``SUBCOMMANDS`` (name -> module, entry point,
one-line help); adding one is adding an entry there.  Each entry point takes
``(argv, options)`` and returns the exit status; ``--help`` works for each.

Arguments after ``FILE.m`` are passed as MATLAB passes them to a compiled
(deployed) application: every argument is a char vector, given to the
primary function of a function file.  A script takes no arguments (as a
deployed script): passing some is MATLAB's ``Too many input arguments`` error.

Exit status: 0 success, 1 MATLAB error, 2 usage error, 130 interrupted by
Ctrl-C (SIGINT).  ``--provider NAME`` starts that provider first and warns on
stderr when it cannot start and the in-process fallback is used.  When
``XDG_RUNTIME_DIR`` is not set, a private one is created before any GPU
library starts (Mesa drivers complain on every start without it).

Options ``--provider NAME``, ``--stats`` and ``--explain`` are collected in a
``CliOptions`` (``.accelerate`` holds ``AccelerateInitOptions.from_env(...)``);
``--stats`` calls ``matfuse.accelerate.facade.print_stats(stream)`` at exit.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import stat
import sys
import tempfile
from typing import Any, Callable

from matfuse import __version__
from matfuse.cli.report import report_error
from matfuse.errors import MatlabError, MatlabInterrupt

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130      # 128 + SIGINT, the shell convention
EXIT_BROKEN_PIPE = 141      # 128 + SIGPIPE


class Subcommand:
    """``matfuse NAME ...``: ``module.function(argv, options) -> int``."""

    __slots__ = ("module", "function", "help")

    def __init__(self, module: str, function: str, help: str):  # noqa: A002 - argparse's word
        self.module = module
        self.function = function
        self.help = help


SUBCOMMANDS: dict[str, Subcommand] = {
    "run": Subcommand("matfuse.cli.main", "run_main", "run a script or function file (args as char vectors)"),
    "bench": Subcommand("matfuse.cli.bench", "bench_cli", "time a script over several runs"),
    "info": Subcommand("matfuse.cli.main", "info_main", "device, planner thresholds, last decisions"),
    "calibrate": Subcommand("matfuse.cli.main", "calibrate_main", "measure planner costs on this device"),
    "kernel": Subcommand("matfuse.cli.main", "kernel_cli", "install the Jupyter kernel spec"),
}


def _epilog() -> str:
    width = max(len(n) for n in SUBCOMMANDS)
    lines = ["subcommands (matfuse NAME --help for each):"]
    lines += [f"  {name.ljust(width)}  {sub.help}" for name, sub in SUBCOMMANDS.items()]
    lines += ["", "exit status: 0 ok, 1 MATLAB error, 2 usage error, 130 interrupted (Ctrl-C)"]
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="matfuse", description="Run MATLAB-language programs (array work on GPUs).",
        usage="matfuse [options] [FILE.m [args...] | SUBCOMMAND ...]",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument("-batch", "-e", "--eval", dest="code", metavar="CODE",
                        help="run MATLAB code non-interactively (exit status 1 on error)")
    parser.add_argument("--provider", metavar="NAME",
                        help="acceleration provider (inprocess, wgpu, cuda)")
    parser.add_argument("--stats", action="store_true", help="print acceleration statistics")
    parser.add_argument("--stats-json", metavar="PATH",
                        help="write acceleration statistics as JSON to PATH at exit")
    parser.add_argument("--explain", action="store_true", help="explain offload decisions")
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="FILE.m [args...], or a subcommand and its arguments")
    return parser


class CliOptions:
    """What the command line asked for. ``accelerate`` is the accelerate
    layer's AccelerateInitOptions when that module is present."""

    __slots__ = ("provider", "stats", "stats_json", "explain", "accelerate")

    def __init__(self, provider: str | None = None, stats: bool = False,
                 stats_json: str | None = None, explain: bool = False, accelerate: Any = None):
        self.provider = provider
        self.stats = stats
        self.stats_json = stats_json
        self.explain = explain
        self.accelerate = accelerate


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

    warn_on_fallback(options.provider, initialize_acceleration_provider(options.accelerate))


def warn_on_fallback(requested: str, provider: Any) -> None:
    """A warning on stderr when the provider that started is not the one
    asked for (``--provider cuda`` without CuPy runs on the fallback)."""
    if requested.lower() in ("auto", provider.name.lower()):
        return
    from matfuse.accelerate.facade import acceleration_state

    state = acceleration_state()
    why = "; ".join(state.notes) if state is not None and state.notes else "it did not start"
    sys.stderr.write(f"Warning: acceleration provider '{requested}' is not available "
                     f"({why}); using '{provider.name}'.\n")
    sys.stderr.flush()


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


def _guarded(action: Callable[[], None]) -> int:
    """Run ``action``: MATLAB errors are reported (status 1), Ctrl-C is status
    130, a closed stdout pipe (``matfuse f.m | head``) ends quietly."""
    try:
        action()
    except MatlabInterrupt as err:
        report_error(err)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        sys.stderr.write("Operation terminated by user.\n")
        return EXIT_INTERRUPTED
    except MatlabError as err:       # MatlabSyntaxError included: nothing ran
        if _from_broken_pipe(err):
            return _broken_pipe()
        report_error(err)
        return EXIT_ERROR
    except BrokenPipeError:
        return _broken_pipe()
    finally:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            pass
    return 0


def _from_broken_pipe(err: MatlabError) -> bool:
    """Whether the error is the VM's report of a write to a closed stdout pipe."""
    seen: BaseException | None = err
    while seen is not None:
        if isinstance(seen, BrokenPipeError):
            return True
        seen = seen.__cause__ or seen.__context__
    return err.identifier == "matfuse:internalError" and err.message.startswith("BrokenPipeError")


def _broken_pipe() -> int:
    # Python would report the failed flush at exit: point stdout at devnull.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return EXIT_BROKEN_PIPE


def run_file(path: str, options: Any, args: list[str] | None = None) -> int:
    from matfuse.vm.session import Session

    if not os.path.isfile(path):
        sys.stderr.write(f"matfuse: cannot open '{path}': no such file\n")
        return EXIT_USAGE
    session = Session(options=options)

    def action() -> None:
        start_acceleration(options)
        _start_explain(options)
        session.run_file(path, list(args or []))

    status = _guarded(action)
    _finish_explain(options)
    _finish_stats(options)
    return status


def run_code(code: str, options: Any) -> int:
    from matfuse.vm.session import Session

    session = Session(options=options)

    def action() -> None:
        start_acceleration(options)
        _start_explain(options)
        session.eval(code)

    status = _guarded(action)
    _finish_explain(options)
    _finish_stats(options)
    return status


# ------------------------------------------------------------ subcommands
def _sub_parser(name: str, usage_help: str) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(prog=f"matfuse {name}", description=usage_help)


def run_main(argv: list[str], options: Any) -> int:
    """``matfuse run FILE.m [args...]``."""
    parser = _sub_parser("run", "Run a script, or a function file's primary function with the "
                         "arguments passed as char vectors (a script takes none).")
    parser.add_argument("file", metavar="FILE.m", help="the script or function file")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments (char vectors)")
    if not argv or argv[0] in ("-h", "--help"):
        parser.parse_args(argv)         # prints the help, or the missing-FILE usage error
    return run_file(argv[0], options, argv[1:])


def info_main(argv: list[str], options: Any) -> int:
    """``matfuse info [--json]`` (matfuse.cli.info)."""
    parser = _sub_parser("info", "Show the acceleration device, the planner's thresholds and "
                         "its last decisions.")
    parser.add_argument("--json", action="store_true", help="print as JSON")
    parser.parse_args(argv)
    from matfuse.cli.info import run_info

    return run_info(argv, getattr(options, "accelerate", None))


def calibrate_main(argv: list[str], options: Any) -> int:
    """``matfuse calibrate [--refresh]`` (matfuse.cli.calibrate)."""
    parser = _sub_parser("calibrate", "Measure the planner's costs on this device and save them.")
    parser.add_argument("--refresh", action="store_true", help="measure again even when saved")
    parser.parse_args(argv)
    from matfuse.cli.calibrate import run_calibrate

    return run_calibrate(argv, getattr(options, "accelerate", None))


def kernel_cli(argv: list[str], options: Any) -> int:
    """``matfuse kernel install [--user]`` (matfuse.jupyter.install)."""
    from matfuse.jupyter.install import kernel_main

    return kernel_main(argv)


def run_subcommand(name: str, argv: list[str], options: Any) -> int:
    sub = SUBCOMMANDS[name]
    entry = getattr(importlib.import_module(sub.module), sub.function)
    try:
        return entry(argv, options)
    except SystemExit as done:          # argparse: --help (0) or a usage error (2)
        return done.code if isinstance(done.code, int) else EXIT_USAGE


def private_runtime_dir() -> None:
    """Set ``XDG_RUNTIME_DIR`` to a private folder when it is missing, before
    a GPU driver starts (Mesa prints an error on each start without one)."""
    if os.environ.get("XDG_RUNTIME_DIR"):
        return
    path = os.path.join(tempfile.gettempdir(), f"matfuse-runtime-{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return
    try:
        info = os.lstat(path)
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        path = tempfile.mkdtemp(prefix="matfuse-runtime-")   # someone else's: use a fresh one
    os.environ["XDG_RUNTIME_DIR"] = path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    private_runtime_dir()
    if argv[:1] == ["bench"]:       # its own options, --provider included
        return run_subcommand("bench", list(argv[1:]), None)
    if argv[:1] == ["kernel"]:      # its own options: see matfuse.jupyter.install
        return run_subcommand("kernel", list(argv[1:]), None)
    ns = build_parser().parse_args(argv)
    if ns.version:
        print(f"matfuse {__version__}")
        return 0
    try:
        options = make_options(ns)
    except MatlabError as err:
        report_error(err)
        return EXIT_USAGE
    if ns.code is not None:
        return run_code(ns.code, options)
    args = list(ns.args)
    if args and args[0] in SUBCOMMANDS:
        return run_subcommand(args[0], args[1:], options)
    if args:
        return run_file(args[0], options, args[1:])
    from matfuse.cli.repl import run_repl

    return run_repl(options)


if __name__ == "__main__":
    sys.exit(main())
