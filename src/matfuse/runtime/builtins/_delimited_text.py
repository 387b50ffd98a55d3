"""Reading and formatting delimited text (CSV, TSV, whitespace columns).

Shared by ``readmatrix``/``readcell``/``dlmread``/``csvread`` and their
writers.  Fields are split on one delimiter (detected from the file when not
given: comma, tab, semicolon, bar, else runs of white space); double quotes
protect delimiters inside a field (``"a,b"``, ``""`` for a quote).  Numbers
are parsed as MATLAB's text import does: decimal and exponent forms, ``Inf``,
``-Inf``, ``NaN`` (any case); anything else is text.
"""

from __future__ import annotations

import os
import re

import numpy as np

from matfuse.errors import MatlabError

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*([eEdD][+-]?\d+)?|\.\d+([eEdD][+-]?\d+)?|inf|nan)\Z",
                     re.IGNORECASE)
_DELIMITER_NAMES = {"comma": ",", ",": ",", "tab": "\t", "\\t": "\t", "\t": "\t",
                    "space": " ", " ": " ", "semi": ";", ";": ";", "bar": "|", "|": "|"}
_CANDIDATES = (",", "\t", ";", "|")


def parse_number(field: str) -> float | None:
    """The number a field holds, or None when it is text (or empty)."""
    text = field.strip()
    if not _NUMBER.match(text):
        return None
    return float(text.replace("d", "e").replace("D", "e"))


def delimiter_option(value: str, fn: str) -> str:
    """A 'Delimiter' value ('comma', '\\t', ';'...) as the character itself."""
    found = _DELIMITER_NAMES.get(value) or _DELIMITER_NAMES.get(value.lower())
    if found is None:
        if len(value) == 1:
            return value
        raise MatlabError(f"MATLAB:{fn}:InvalidDelimiter", f"Invalid delimiter '{value}'.")
    return found


def read_lines(path: str, fn: str) -> list[str]:
    """The file's lines (UTF-8, any newline convention); MATLAB's error when
    it cannot be opened."""
    try:
        with open(os.path.expanduser(path), "rb") as fh:
            data = fh.read()
    except OSError:
        raise MatlabError("MATLAB:textio:textio:FileNotFound" if fn != "dlmread" else "MATLAB:dlmread:FileNotOpened",
                          f"Unable to find or open '{path}'. Check the path and filename or file permissions.") from None
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.splitlines()


def detect_delimiter(lines: list[str]) -> str:
    """The delimiter that (nearly) every line holds; ' ' (white space: runs
    of spaces and tabs) when none does, e.g. columns aligned with a mix of
    tabs and spaces."""
    sample = [ln for ln in lines[:200] if ln.strip()]
    best, best_count = " ", 0
    for cand in _CANDIDATES:
        count = sum(1 for ln in sample if cand in ln)
        if count > best_count:
            best, best_count = cand, count
    if best_count < 0.8 * len(sample):
        return " "
    return best


def split_fields(line: str, delimiter: str) -> list[str]:
    """The fields of one line; quotes removed, white space around fields kept
    out.  ``' '`` splits on runs of white space."""
    if '"' not in line:       # the common case: no quoting to honour
        if delimiter == " ":
            return line.split() or [""]
        return [f.strip() for f in line.split(delimiter)]
    if delimiter == " ":
        return _split_quoted(line.strip(), None)
    return [f.strip() for f in _split_quoted(line, delimiter)]


def _split_quoted(line: str, delimiter: str | None) -> list[str]:
    fields: list[str] = []
    current: list[str] = []
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == '"' and line[i + 1:i + 2] == '"':
                current.append('"')
                i += 1
            elif ch == '"':
                quoted = False
            else:
                current.append(ch)
        elif ch == '"' and not "".join(current).strip():
            quoted = True
            current = []
        elif (delimiter is None and ch in " \t") or ch == delimiter:
            if delimiter is None:
                while i + 1 < len(line) and line[i + 1] in " \t":
                    i += 1
            fields.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    fields.append("".join(current))
    return fields


def table_rows(lines: list[str], delimiter: str, skip: int) -> list[list[str]]:
    """Non-empty lines after ``skip`` header lines, split into fields."""
    return [split_fields(ln, delimiter) for ln in lines[skip:] if ln.strip()]


def header_line_count(lines: list[str], delimiter: str) -> int:
    """Leading lines with no number in them (column names, titles)."""
    for i, ln in enumerate(lines):
        if not ln.strip():
            continue
        if any(parse_number(f) is not None for f in split_fields(ln, delimiter)):
            return i
    return len(lines)


def _plain_numbers(row: list[str]) -> bool:
    """Whether Python's float() reads every field as MATLAB would (no '_'
    digit separators, no 'infinity' spelled out)."""
    return not any("_" in f or "y" in f or "Y" in f or not f.isascii() for f in row)


def numeric_grid(rows: list[list[str]], fill: float) -> tuple[np.ndarray, list[tuple[int, int, str]]]:
    """Rows of fields as a double matrix (short rows and empty fields get
    ``fill``) and the (row, column, text) of fields that are not numbers."""
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), fill, dtype=np.float64)
    text_fields: list[tuple[int, int, str]] = []
    for i, row in enumerate(rows):
        if _plain_numbers(row):
            try:
                out[i, :len(row)] = [float(f) for f in row]
                continue
            except ValueError:
                pass        # some field is text, empty or MATLAB-only syntax
        for j, field in enumerate(row):
            value = parse_number(field)
            if value is not None:
                out[i, j] = value
            elif field.strip():
                text_fields.append((i, j, field))
    return out, text_fields


# ------------------------------------------------------------------ write
def format_number(x: float, digits: int) -> str:
    """A number as MATLAB's text writers print it (``%.{digits}g``, Inf/NaN)."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    text = f"{x:.{digits}g}"
    return text


def quote_text(text: str, delimiter: str) -> str:
    """Text fields holding the delimiter, a quote or a newline are quoted."""
    if delimiter in text or '"' in text or "\n" in text:
        return '"' + text.replace('"', '""') + '"'
    return text
