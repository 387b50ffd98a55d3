"""Extract GNU Octave's function tests and convert them to plain MATLAB.

Octave ships its function tests inside its installed sources: ``%!assert``
and ``%!test`` blocks in ``m/**/NAME.m`` and, for compiled builtins, in
``etc/tests/**/FILE.cc-tst``. For each function of ``FUNCTIONS`` (functions
MATLAB also has) this script collects those units, rewrites Octave-only
syntax to MATLAB (``!=``, ``#`` comments, double-quoted strings, ``endif``,
``x += 1`` ...), drops units that need Octave-only functions or syntax, and
writes ``tests/octave/units_all.json``. ``validate.py`` then keeps the units
that pass in Octave itself.

Octave's ``assert(observed, expected, tol)`` compares values, MATLAB's
``assert`` checks a condition; units call ``octassert`` instead
(``tests/octave/support/octassert.m``, Octave's comparison rules in MATLAB).

    python3 tools/octave_tests/convert.py [--octave-root /usr/share/octave/7.3.0]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT_DIR = REPO / "tests" / "octave"

# Functions MATLAB also has (issue 19's list, common neighbours, elementary math).
FUNCTIONS = """
sum prod cumsum cumprod diff max min cummax cummin any all find mean median mode var std
sort unique union intersect setdiff setxor ismember accumarray interp1 interp2 polyfit polyval
roots conv deconv filter cellfun arrayfun cell2mat num2cell mat2cell num2str mat2str int2str
dec2bin dec2hex hex2dec bin2dec dec2base base2dec strsplit strjoin strrep strtrim regexprep
upper lower fliplr flipud flip circshift kron trace rank null orth det inv norm cross dot
meshgrid ndgrid linspace logspace magic nchoosek perms primes isprime factor gcd lcm cov
corrcoef histc repmat reshape cat squeeze permute rot90 tril triu toeplitz hankel vander hilb
invhilb pascal rosser wilkinson hadamard compan bitand bitor bitxor bitshift bitget bitset
floor round mod rem fix idivide sortrows trapz cumtrapz deal validatestring strjust bsxfun
strtok blanks deblank istril istriu isdiag issymmetric ishermitian skewness kurtosis iqr
prctile quantile expm logm sqrtm fzero fminsearch fminbnd integral sub2ind ind2sub
fieldnames struct2cell cell2struct strcmp strncmp strcmpi strfind regexp
sscanf textscan inputParser ode45 ode23 odeset optimset isfield rmfield orderfields getfield
setfield structfun strcat strvcat str2num str2double strncmpi regexpi startsWith endsWith erase
isstrprop regexptranslate repelem bitcmp blkdiag cast typecast nextpow2 nthroot factorial pow2
realpow realsqrt reallog beta mkpp ppval unmkpp spline poly polyder polyint rat isequal isequaln
fullfile fileparts deg2rad rad2deg cosd sind tand acosd asind atand fftshift ifftshift fft ifft
conv2 pinv cond linsolve vecnorm integral2 interpn rescale bounds xor validateattributes
nargoutchk corr isbanded hypot atan2 diag nnz issorted isrow iscolumn isvector isscalar
ismatrix abs ceil sign sqrt exp log log2 log10 log1p expm1 real imag conj angle isnan isinf
isfinite gamma erf erfc erfinv erfcinv sin cos tan asin acos atan sinh cosh tanh asinh acosh
atanh isspace
""".split()

# Octave functions or names with no MATLAB equivalent: a unit calling one is dropped.
OCTAVE_ONLY = set("""
columns rows postpad prepad nthargout print_usage isargout ifelse merge lookup fdisp puts fputs
printf cellslices do_string_escapes undo_string_escapes sizemax NA isna ostrsplit substr index
rindex toascii tolower toupper meansq center sumsq statistics fail issquare vech vec e cbrt
isdigit isalpha isupper islower ispunct iscntrl isalnum isxdigit isgraph isprint isascii
quadv pqpnonneg glpk qp sqp javaObject javaMethod java_get java_set __unicode_length__
OCTAVE_VERSION compare_versions nproc sizeof common_size resize idx_vector size_equal blkmm
bincoeff is_sq_string is_dq_string signbit
validatestring_legacy mad zscore range bitpack bitunpack numfields erfi unlink
""".split())

# Files whose units that call none of the file's listed functions still
# test a MATLAB feature: they are filed under this name (struct arrays).
FILE_OWNERS = {"ov-struct.cc-tst": "struct"}

# MATLAB's sparse storage class: matfuse has none yet, so these units are
# flagged and reported apart (they stay in the corpus).
SPARSE_NAMES = {"sparse", "speye", "full", "issparse", "spones", "sprand", "sprandn",
                "spalloc", "spfun", "nzmax"}

BLOCK_RE = re.compile(r"^%!([a-z_]+)\b\s?(.*)$")
ID_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
KEYWORD_ENDS = {"endfunction", "endif", "endfor", "endwhile", "endswitch", "end_try_catch",
                "endparfor"}
UNSUPPORTED_KEYWORDS = {"do", "until", "unwind_protect", "unwind_protect_cleanup",
                        "end_unwind_protect", "global", "persistent"}


class Unsupported(Exception):
    """A unit uses syntax with no plain-MATLAB rewrite here."""


def docstring_sources(root: Path) -> dict[str, str]:
    """Function name -> compiled source file (from built-in-docstrings)."""
    text = (root / "etc" / "built-in-docstrings").read_text(encoding="utf-8", errors="replace")
    out: dict[str, str] = {}
    for entry in text.split("\x1d")[1:]:
        lines = entry.split("\n", 2)
        if len(lines) >= 2 and lines[1].startswith("@c "):
            parts = lines[1].split()
            if len(parts) >= 3:
                out[lines[0].strip()] = parts[2]
    return out


def source_files(root: Path) -> dict[Path, list[str]]:
    """Test source file -> target functions it may hold tests for."""
    builtin_src = docstring_sources(root)
    files: dict[Path, list[str]] = {}
    for name in FUNCTIONS:
        found = sorted((root / "m").rglob(f"{name}.m"))
        if found:
            files.setdefault(found[0], []).append(name)
            continue
        src = builtin_src.get(name)
        if src:
            tst = root / "etc" / "tests" / (src + "-tst")
            if tst.exists():
                files.setdefault(tst, []).append(name)
    return files


def split_blocks(text: str) -> list[tuple[str, str]]:
    """(keyword, code) of each ``%!`` block of a file, in order."""
    blocks: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if not line.startswith("%!"):
            continue
        m = BLOCK_RE.match(line)
        if m and not line.startswith("%! "):
            blocks.append((m.group(1), [m.group(2)]))
        elif blocks:
            blocks[-1][1].append(line[3:] if line.startswith("%! ") else line[2:])
    return [(kw, "\n".join(lines)) for kw, lines in blocks]


# ------------------------------------------------------------ syntax rewrite
def _is_transpose(prev: str, in_brackets: bool, space_before: bool) -> bool:
    if space_before and in_brackets:
        return False
    return bool(prev) and (prev.isalnum() or prev in "_)]}.'\"")


def _dq_to_matlab(body: str) -> str:
    """A double-quoted string body as a MATLAB char expression."""
    if "\\" not in body:
        return "'" + body.replace('""', '"').replace("'", "''") + "'"
    simple = {"n": "\\n", "t": "\\t", "\\": "\\\\", '"': '"', "'": "''", "r": "\\r",
              "a": "\\a", "0": "\\0"}
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1] if i + 1 < len(body) else ""
            if nxt not in simple:
                raise Unsupported(f"escape \\{nxt}")
            out.append(simple[nxt])
            i += 2
            continue
        out.append({"'": "''", "%": "%%"}.get(c, c))
        i += 1
    return "sprintf('" + "".join(out) + "')"


def convert_line(line: str, parens: int = 0) -> tuple[str, int]:
    """Rewrite one line of Octave code as MATLAB (strings respected).

    ``parens`` is the count of parentheses left open by earlier lines (Octave
    continues a statement inside parentheses without ``...``); returns the
    line and the count left open after it."""
    out: list[str] = []
    comment = ""
    i, depth, prev = 0, parens, ""
    assignments = 0                # '=' signs of the current statement
    n = len(line)
    while i < n:
        c = line[i]
        space_before = i > 0 and line[i - 1] in " \t"
        if c in "#%":
            if line[i:i + 2] in ("#{", "%{") or line[i:i + 2] in ("#}", "%}"):
                raise Unsupported("block comment")
            comment = "%" + line[i + 1:]
            break
        if c == '"':
            j, body = i + 1, []
            while j < n:
                if line[j] == "\\" and j + 1 < n:
                    body.append(line[j:j + 2])
                    j += 2
                    continue
                if line[j] == '"':
                    if j + 1 < n and line[j + 1] == '"':
                        body.append('""')
                        j += 2
                        continue
                    break
                body.append(line[j])
                j += 1
            if j >= n:
                raise Unsupported("unterminated string")
            out.append(_dq_to_matlab("".join(body)))
            i, prev = j + 1, "'"
            continue
        if c == "'" and not _is_transpose(prev, depth > 0, space_before):
            j = i + 1
            while j < n:
                if line[j] == "'":
                    if j + 1 < n and line[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            if j >= n:
                raise Unsupported("unterminated string")
            out.append(line[i:j + 1])
            i, prev = j + 1, "'"
            continue
        if c == "!":
            out.append("~")
            i += 1
            prev = "~"
            continue
        if line.startswith("**", i) or line.startswith(".**", i):
            raise Unsupported("** power")
        if line.startswith("++", i) or line.startswith("--", i):
            raise Unsupported("increment operator")
        if c in "+-*/|&^" and line.startswith("=", i + 1) and not line.startswith("==", i + 1):
            raise Unsupported("compound assignment")
        if c == "=" and depth == 0 and prev not in "=~<>" and not line.startswith("==", i):
            assignments += 1
            if assignments > 1:
                raise Unsupported("chained assignment")
        if c in ";," and depth == 0:
            assignments = 0
        if c in "([{":
            depth += 1
            if c == "(":
                parens += 1
            if c == "(" and prev in ")]" and not space_before:
                raise Unsupported("chained indexing")
            if c == "{" and prev in ")]" and not space_before:
                raise Unsupported("chained indexing")
        elif c in ")]}":
            depth -= 1
            if c == ")":
                parens -= 1
        if c.isalpha() or c == "_":
            m = ID_RE.match(line, i)
            word = m.group(0)
            if word in KEYWORD_ENDS:
                word = "end"
            elif word in UNSUPPORTED_KEYWORDS:
                raise Unsupported(word)
            elif word.startswith("_"):
                raise Unsupported("name starting with an underscore")
            elif word == "assert":
                word = "octassert"
            out.append(word)
            i = m.end()
            prev = word[-1]
            continue
        if c == "\\" and line[i + 1:].strip() == "":
            out.append("...")
            break
        if c not in " \t":
            prev = c
        out.append(c)
        i += 1
    text = "".join(out)
    if parens > 0 and not text.rstrip().endswith("..."):
        text = text.rstrip() + " ..."
    return text + comment, parens


# Tokens of converted code: a number (its exponent is no identifier), a name,
# a quote (string or transpose), a comment, or any other character.
TOKEN_RE = re.compile(r"(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eEdD][+-]?\d+)?[ij]?)"
                      r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<quote>')|(?P<comment>%.*)|(?P<other>.)")


def called_names(code: str) -> set[str]:
    """Identifiers of converted code outside strings, comments and numbers.

    A quote right after a name, a number, a closing bracket or another quote
    (no space between) is a transpose; any other quote starts a string."""
    names: set[str] = set()
    for line in code.split("\n"):
        pos, prev = 0, ""
        while pos < len(line):
            m = TOKEN_RE.match(line, pos)
            kind = m.lastgroup
            if kind == "comment":
                break
            if kind == "quote" and not (prev and (prev[-1].isalnum() or prev[-1] in "_)]}'.")):
                end = pos + 1
                while end < len(line):
                    if line[end] == "'":
                        if line.startswith("''", end):
                            end += 2
                            continue
                        break
                    end += 1
                pos, prev = end + 1, "'"
                continue
            if kind == "name":
                names.add(m.group(0))
            prev = m.group(0) if kind != "other" or not m.group(0).isspace() else ""
            pos = m.end()
    return names


def convert_unit(keyword: str, body: str, shared: str) -> str:
    """A block as MATLAB code, the ``%!shared`` initialisation first."""
    body = re.sub(r"^\s*<[^>]*>", "", body)       # bug annotations: %!test <*12345>
    if keyword == "assert":
        body = "assert " + body.strip()
    code = (shared + "\n" + body) if shared else body
    lines, parens = [], 0
    for line in code.split("\n"):
        text, parens = convert_line(line, parens)
        lines.append(text)
    return "\n".join(lines).strip() + "\n"


def owner(code: str, names: list[str]) -> str | None:
    """The target function a unit tests: the first one it calls."""
    best, best_pos = None, None
    for name in names:
        m = re.search(rf"(?<![\w.]){re.escape(name)}\s*\(", code)
        if m and (best_pos is None or m.start() < best_pos):
            best, best_pos = name, m.start()
    return best


def _sets_shared_only(body: str, shared_vars: list[str]) -> bool:
    """Whether a test block only assigns shared variables (no checks)."""
    lines = [ln.strip() for ln in body.strip().split("\n") if ln.strip()]
    pattern = re.compile(r"^(%s)\s*=[^=]" % "|".join(re.escape(v) for v in shared_vars))
    return bool(lines) and all(pattern.match(ln) for ln in lines)


def extract(root: Path) -> tuple[list[dict], dict[str, int]]:
    units: list[dict] = []
    dropped: dict[str, int] = {}
    for path, names in sorted(source_files(root).items()):
        text = path.read_text(encoding="utf-8", errors="replace")
        blocks = split_blocks(text)
        helpers = {m.group(1) for kw, body in blocks if kw == "function"
                   for m in [re.search(r"(?:=\s*|^\s*)([A-Za-z_]\w*)\s*(?:\(|$)", body.split("\n")[0])]
                   if m}
        shared, shared_vars = "", []
        rel = str(path.relative_to(root))
        for index, (keyword, body) in enumerate(blocks):
            if keyword == "shared":
                first, _, rest = body.partition("\n")
                shared_vars = [v.strip() for v in re.split(r"[,\s]+", first) if v.strip()]
                shared = "".join(f"{v} = [];\n" for v in shared_vars) + rest + "\n"
                continue
            if keyword == "test" and shared_vars and _sets_shared_only(body, shared_vars):
                shared += body + "\n"      # a state-setting test: later units see it
                continue
            if keyword not in ("assert", "test"):
                continue
            fn = owner(body, names) if len(names) > 1 else names[0]
            fn = fn or FILE_OWNERS.get(path.name)
            if fn is None:
                continue
            reason = None
            try:
                uses_shared = any(re.search(rf"\b{re.escape(v)}\b", body) for v in shared_vars)
                code = convert_unit(keyword, body, shared if uses_shared else "")
                used = called_names(code)
                bad = (used & OCTAVE_ONLY) | (used & helpers)
                if bad:
                    reason = "octave-only: " + ",".join(sorted(bad))
            except Unsupported as exc:
                reason = f"syntax: {exc}"
            if reason:
                dropped[reason.split(":")[0]] = dropped.get(reason.split(":")[0], 0) + 1
                continue
            unit = {"id": f"{rel}:{index}", "function": fn, "code": code}
            if used & SPARSE_NAMES:
                unit["needs"] = "sparse"
            units.append(unit)
    return units, dropped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--octave-root", default="/usr/share/octave/7.3.0")
    args = parser.parse_args(argv)
    units, dropped = extract(Path(args.octave_root))
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    target = OUT_DIR / "units_all.json"
    target.write_text(json.dumps(units, indent=1) + "\n", encoding="utf-8")
    per_fn: dict[str, int] = {}
    for u in units:
        per_fn[u["function"]] = per_fn.get(u["function"], 0) + 1
    print(f"{len(units)} units over {len(per_fn)} functions -> {target}")
    print("dropped:", dropped)
    return 0


if __name__ == "__main__":
    sys.exit(main())
