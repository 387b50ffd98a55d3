"""A generator of hostile MATLAB programs and a checker of what they show.

Programs aim at error paths: every registered builtin called with odd
values and wrong argument counts, operators and indexing between values of
every class, huge and non-integer sizes, odd strings and printf formats,
deep nesting and long chains. Each runs in a fresh in-process Session; a
case fails when anything the user would see (stdout, stderr, the uncaught
error's report) names a Python exception or ``matfuse:internalError``, or
when Python emits a warning (which the command line would print with a
source path).

Run the full budget locally::

    PYTHONPATH=src python3 -m tests.robustness.hostile_programs --cases 10000 --seed 1
"""

from __future__ import annotations

import argparse
import io
import random
import signal
import sys
import time
import warnings
from dataclasses import dataclass, field

from matfuse.errors import MatlabError
from matfuse.runtime.registry import BUILTINS, load_all

PYTHON_NAMES = ("ValueError", "MemoryError", "OverflowError", "RecursionError", "OSError",
                "TypeError", "KeyError", "IndexError", "ComplexWarning", "Traceback",
                "AttributeError", "ZeroDivisionError", "AssertionError", "NotImplementedError",
                "UnboundLocalError", "RuntimeWarning", "internalError", "numpy", ".py\"")

# Builtins that touch the machine outside the session (files, folders, the
# environment, the search path), wait, or read stdin: never generated.
EXCLUDED = frozenset("""
cd pause setenv delete mkdir rmdir save load fopen fwrite fread fgetl fgets feof fseek ftell
frewind fclose addpath rmpath path run gputimeit timeit tempname tempdir diary system unix dos
input keyboard exit quit gpuDevice reset wait beep
""".split())

# Values of every class, special numbers and odd shapes (no sizes between
# ~1e5 and ~1e14, which some functions would really allocate).
VALUES = [
    "0", "1", "2", "3", "-1", "2.5", "-0", "NaN", "Inf", "-Inf", "1e15", "1e20", "-1e20",
    "realmax", "-realmax", "realmin", "1e-310", "eps", "1e400", "intmax('int64')",
    "intmin('int64')", "uint8(200)", "int8(-5)", "uint64(18446744073709551615)", "int16([1 2 3])",
    "single(3.5)", "single(NaN)", "true", "false", "[true false]", "1+5i", "[1+2i 3]",
    "complex(1,0)", "[]", "zeros(0,3)", "zeros(3,0)", "ones(2,0,3)", "''", "'abc'", "'a'",
    "\"str\"", "[\"a\" \"bc\"]", "string([])", "{}", "{1,'a'}", "{[],{}}", "struct('a',1)",
    "struct('a',{1,2})", "struct()", "@sin", "@(x) x+1", "1:5", "(1:4)'", "magic(3)",
    "rand(2,2,2)", "[1 NaN Inf]", "char(0)", "char(65535)", "'%d%s'", "'\\n'", "ones(1,70)",
    "[2 3]", "[1 2; 3 4]", "int8([127 -128])", "logical([1 0 1])", "{'x','yy'}", "'é∑😀'",
    "gpuArray(1:3)", "gpuArray(single(2))", "sparse_missing", "x_undefined",
]
SIZES = ["0", "1", "2", "-1", "2.5", "NaN", "Inf", "-Inf", "1e15", "1e20", "realmax", "1e400",
         "[2 3]", "[1e15 0]", "[0 1e20]", "ones(1,70)", "2*ones(1,70)", "[]", "'a'", "{}",
         "1+2i", "int8(3)", "true", "[2 -3]", "[1 2 3 4]", "[4294967296 1e15]"]
FORMATS = ["'%d'", "'%s'", "'%f'", "'%.1e15f'", "'%*d'", "'%-*.*f'", "'%'", "'%%'", "'%c'",
           "'%x'", "'%o'", "'%e'", "'%g'", "'%5$d'", "'%ld'", "'%hd'", "'%u'", "'%i'", "'%bx'",
           "'%tx'", "'\\x'", "'\\777'", "'%.999999999999d'", "'%-+ #0d'", "'%10000000000d'",
           "'%.0f %s %d'", "'é%s😀'", "\"%d\"", "'%\\n'"]
BINARY_OPS = ["+", "-", "*", ".*", "/", "./", "\\", ".\\", "^", ".^", "==", "~=", "<", "<=",
              ">", ">=", "&", "|", "&&", "||", ":"]


@dataclass
class Failure:
    """A program whose visible output shows Python."""

    seed: int
    code: str
    text: str


@dataclass
class Report:
    cases: int = 0
    failures: list[Failure] = field(default_factory=list)
    slow: list[tuple[float, str]] = field(default_factory=list)
    matlab_errors: int = 0


class CaseTimeout(BaseException):
    """Raised by the alarm when one program runs too long (not a MatlabError,
    so no program-level try/catch can swallow it)."""


class ProgramGenerator:
    """Random hostile programs; the same seed gives the same program."""

    def __init__(self) -> None:
        load_all()
        self.builtins = sorted((name, (b.min_args, b.max_args)) for name, b in BUILTINS.items()
                               if name not in EXCLUDED)
        self.templates = [
            (30, self.builtin_call), (6, self.builtin_multi_out), (12, self.binary),
            (10, self.indexing), (6, self.assignment), (4, self.concatenation),
            (6, self.constructor), (5, self.printf), (3, self.deep), (4, self.control),
            (3, self.strings), (2, self.recursion),
        ]
        self.weights = [w for w, _ in self.templates]

    def program(self, seed: int) -> str:
        rng = random.Random(seed)
        statements = []
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            template = rng.choices(self.templates, self.weights)[0][1]
            statements.append(template(rng))
        return "\n".join(statements)

    # ------------------------------------------------------------ pieces
    def value(self, rng: random.Random) -> str:
        return rng.choice(VALUES)

    def size(self, rng: random.Random) -> str:
        return rng.choice(SIZES)

    def end(self, rng: random.Random) -> str:
        return rng.choice([";", ";", "", ","])

    # ---------------------------------------------------------- templates
    def builtin_call(self, rng: random.Random) -> str:
        name, (low, high) = rng.choice(self.builtins)
        top = (high if high is not None else low + 3)
        count = rng.randint(0, min(top + 1, 5))
        pool = VALUES if rng.random() < 0.7 else SIZES
        args = [rng.choice(pool) for _ in range(count)]
        if args and rng.random() < 0.2:
            args[0] = f"gpuArray({args[0]})"     # the device paths of the builtin
        return f"x = {name}({', '.join(args)}){self.end(rng)}"

    def builtin_multi_out(self, rng: random.Random) -> str:
        name, (low, high) = rng.choice(self.builtins)
        outs = ", ".join(f"o{k}" for k in range(rng.randint(2, 4)))
        args = ", ".join(self.value(rng) for _ in range(rng.randint(max(low, 0), max(low, 0) + 2)))
        return f"[{outs}] = {name}({args}){self.end(rng)}"

    def binary(self, rng: random.Random) -> str:
        op = rng.choice(BINARY_OPS)
        unary = rng.choice(["", "-", "~", "+"])
        post = rng.choice(["", "'", ".'"])
        left = self.value(rng)
        if rng.random() < 0.2:
            left = f"gpuArray({left})"
        return f"x = {unary}({left}){post} {op} {self.value(rng)}{self.end(rng)}"

    def indexing(self, rng: random.Random) -> str:
        base, a, b = self.value(rng), self.value(rng), self.size(rng)
        form = rng.choice(["x({a})", "x({a}, {b})", "x{{{a}}}", "x.f", "x.({a})",
                           "x(end+{a})", "x({a}).f", "x{{:}}", "x(:, {b}, {a})", "x(end, end)",
                           "x({a})({b})", "x{{{a}}}.g({b})"])
        return f"x = {base}; y = " + form.format(a=a, b=b) + self.end(rng)

    def assignment(self, rng: random.Random) -> str:
        base, a, b, c = self.value(rng), self.size(rng), self.value(rng), self.value(rng)
        form = rng.choice(["x({a}) = {c}", "x({a}, {b}) = {c}", "x{{{a}}} = {c}", "x.f = {c}",
                           "x.({b}) = {c}", "x({a}) = []", "x(:, {a}) = []", "x({a}).f = {c}",
                           "x(end+1, :) = {c}", "[x, y] = deal({c})", "x(:) = {c}",
                           "x{{{a}}}.g({b}) = {c}", "x.f.g(3).h{{2}} = {c}"])
        return f"x = {base}; " + form.format(a=a, b=b, c=c) + self.end(rng)

    def concatenation(self, rng: random.Random) -> str:
        items = [self.value(rng) for _ in range(rng.randint(1, 4))]
        form = rng.choice(["[{0}]", "[{0}; {1}]", "{{{0}}}", "[{0}, {1}]", "{{{0}; {1}}}",
                           "cat({1}, {0})"])
        return "x = " + form.format(", ".join(items), items[-1]) + self.end(rng)

    def constructor(self, rng: random.Random) -> str:
        name = rng.choice(["zeros", "ones", "rand", "randn", "randi", "cell", "true", "false",
                           "eye", "nan", "inf", "repmat", "magic", "linspace", "blanks",
                           "strings_missing", "colon", "reshape", "randperm", "primes"])
        args = [self.size(rng) for _ in range(rng.randint(0, 3))]
        if name in ("randi", "repmat", "reshape"):
            args.insert(0, rng.choice(["5", "[1 2; 3 4]", "'a'", "{1}", "10"]))
        if rng.random() < 0.2:
            args.append(rng.choice(["'single'", "'int8'", "'like'", "'gpuArray'", "'uint64'",
                                    "'logical'", "'double'", "'bogus'"]))
        return f"x = {name}({', '.join(args)}){self.end(rng)}"

    def printf(self, rng: random.Random) -> str:
        fn = rng.choice(["sprintf", "fprintf", "num2str", "disp(sprintf", "mat2str", "fprintf(1, "])
        fmt = rng.choice(FORMATS)
        args = ", ".join(self.value(rng) for _ in range(rng.randint(0, 3)))
        if fn == "disp(sprintf":
            return f"disp(sprintf({fmt}{', ' + args if args else ''}))"
        if fn == "fprintf(1, ":
            return f"fprintf(1, {fmt}{', ' + args if args else ''});"
        if fn in ("num2str", "mat2str"):
            return f"x = {fn}({self.value(rng)}, {rng.choice([fmt, self.size(rng)])})"
        return f"x = {fn}({fmt}{', ' + args if args else ''}){self.end(rng)}"

    def deep(self, rng: random.Random) -> str:
        n = rng.choice([50, 300, 1000, 3000, 10000])
        kind = rng.randrange(8)
        if kind == 0:
            ops = rng.choices(["+", "-", ".*", "&", "|", "==", "&&"], k=n)
            return "x = 1" + "".join(f"{op}1" for op in ops) + ";"
        if kind == 1:
            return "s.a = 1; x = s" + ".a" * n + ";"
        if kind == 2:
            return "c = {1}; x = c" + "{1}" * n + ";"
        if kind == 3:
            depth = min(n, 600)
            return "x = " + "(" * depth + "1" + ")" * depth + ";"
        if kind == 4:
            depth = min(n, 400)
            return "x = " + "[" * depth + "1" + "]" * depth + ";"
        if kind == 5:
            depth = min(n, 1000)
            return "x = 0; " + "if true, " * depth + "x = 1; " + "end, " * depth
        if kind == 6:
            depth = min(n, 300)
            return "x = " + "@() " * depth + "1; y = x();"
        return "x = " + "-" * min(n, 2000) + "1;"

    def control(self, rng: random.Random) -> str:
        v, w = self.value(rng), self.value(rng)
        form = rng.choice([
            "for k = {v}, x = k; end", "while {v}, break; end", "if {v}, x = 1; end",
            "switch {v}, case {w}, x = 1; otherwise, x = 2; end",
            "try, x = {v}({w}); catch e, disp(e.message); disp(e.identifier); end",
            "x = {v}; x(:) = [];", "for k = {v}, for j = {w}, end, end",
            "try, error({v}); catch e, disp(e.message); end",
            "try, error('a:b', {v}, {w}); catch e, disp(e.message); end",
            "x = {v}; if x, end",
        ])
        return form.format(v=v, w=w)

    def strings(self, rng: random.Random) -> str:
        text = rng.choice(["''", "'\\0'", "'é∑😀'", "repmat('ab', 1, 3000)", "char([0 1 2 55296])",
                           "\"\"", "string(missing_thing)", "'%'", "'\\'", "newline", "char(1114111)"])
        fn = rng.choice(["upper", "lower", "strtrim", "strsplit", "regexprep", "regexp",
                         "str2num", "str2double", "strrep", "num2str", "double", "string",
                         "cellstr", "strjoin", "dec2bin", "hex2dec", "bin2dec", "fliplr",
                         "contains", "strfind", "sprintf", "eval", "str2func", "isvarname"])
        extra = ", ".join(rng.choice(VALUES + ["'a'", "'(.*)*$'", "'\\\\'", "'$0'"])
                          for _ in range(rng.randint(0, 2)))
        return f"x = {fn}({text}{', ' + extra if extra else ''}){self.end(rng)}"

    def recursion(self, rng: random.Random) -> str:
        return rng.choice([
            "f = @(f, n) f(f, n + 1); f(f, 1)",
            "g = @(g) g(g); g(g);",
            "x = cellfun(@(c) c{1}, {{1}, {2}});",
            "x = arrayfun(@(k) k^2, 1:3, 'UniformOutput', false);",
            "x = feval(@feval, @feval, @sin, 1);",
        ])


def run_program(code: str, time_limit_s: float = 20.0) -> tuple[str, MatlabError | None, list[str], float]:
    """(everything the user sees, the uncaught error, Python warnings, seconds)."""
    from matfuse.vm.session import Session

    out, err = io.StringIO(), io.StringIO()
    caught: MatlabError | None = None
    start = time.perf_counter()

    def on_alarm(signum, frame):
        raise CaseTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, time_limit_s)
    with warnings.catch_warnings(record=True) as caught_warnings:
        warnings.simplefilter("always")
        try:
            Session(stdout=out, stderr=err).eval(code)
        except MatlabError as exc:
            caught = exc
        except CaseTimeout:
            pass
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - start
    seen = out.getvalue() + err.getvalue()
    if caught is not None:
        seen += "\n" + caught.identifier + "\n" + caught.report()
    texts = [f"{w.category.__name__}: {w.message}" for w in caught_warnings]
    return seen, caught, texts, seconds


def python_names_in(text: str) -> list[str]:
    return [name for name in PYTHON_NAMES if name in text]


def run_cases(cases: int, seed: int, slow_s: float = 5.0) -> Report:
    """Run ``cases`` programs from ``seed`` on; the report of failures."""
    generator = ProgramGenerator()
    report = Report()
    for k in range(cases):
        case_seed = seed * 1_000_003 + k
        code = generator.program(case_seed)
        seen, caught, python_warnings, seconds = run_program(code)
        report.cases += 1
        report.matlab_errors += caught is not None
        if seconds > slow_s:
            report.slow.append((seconds, code))
        names = python_names_in(seen)
        if names or python_warnings:
            report.failures.append(Failure(case_seed, code, "\n".join(python_warnings) + seen))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=30, help="failures to print")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    report = run_cases(args.cases, args.seed)
    for failure in report.failures[:args.show]:
        print(f"--- seed {failure.seed}\n{failure.code[:300]}\n>>> {failure.text.strip()[-600:]}")
    for seconds, code in report.slow:
        print(f"--- slow ({seconds:.1f} s): {code[:200]}")
    print(f"{report.cases} cases (seed {args.seed}) in {time.perf_counter() - start:.0f} s: "
          f"{len(report.failures)} failures, {report.matlab_errors} MATLAB errors, "
          f"{len(report.slow)} slow")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 30000))
    sys.exit(main())
