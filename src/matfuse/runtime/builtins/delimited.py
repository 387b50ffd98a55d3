"""Delimited text files: readmatrix writematrix readcell writecell csvread
csvwrite dlmread dlmwrite.

``readmatrix`` detects the delimiter and skips leading header lines (lines
without a number); fields that are not numbers, empty fields and missing
trailing fields become NaN.  ``dlmread``/``csvread`` take zero-based row and
column offsets, fill empty fields with 0 and reject text.  ``writematrix``
and ``writecell`` write 15 significant digits (MATLAB's ``longG``),
``dlmwrite``/``csvwrite`` 5 unless ``'precision'`` says otherwise.  Every
writer replaces its file atomically.  Spreadsheet formats are not supported.
"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np

from matfuse.errors import MatlabError
from matfuse.runtime.atomic_files import replace_file
from matfuse.runtime.builtins._common import int_value, is_text, text_arg
from matfuse.runtime.builtins._delimited_text import (
    delimiter_option,
    detect_delimiter,
    format_number,
    header_line_count,
    numeric_grid,
    parse_number,
    quote_text,
    read_lines,
    table_rows,
)
from matfuse.runtime.registry import builtin
from matfuse.runtime.values import (
    CHAR_DTYPE,
    CellArray,
    DeviceValue,
    StringArray,
    canonical,
    char_array,
    class_of,
    dtype_for_class,
    to_array,
    to_str,
)

_SPREADSHEETS = (".xls", ".xlsx", ".xlsm", ".xlsb", ".ods")


def _options(args: tuple[Any, ...], fn: str, allowed: tuple[str, ...]) -> dict[str, Any]:
    """Name-value pairs (names case-insensitive) restricted to ``allowed``."""
    if len(args) % 2:
        raise MatlabError("MATLAB:InputParser:ParamMissingValue",
                          f"Name-value arguments to {fn} must come in pairs.")
    out: dict[str, Any] = {}
    for name, value in zip(args[0::2], args[1::2]):
        key = text_arg(name, fn, "parameter name").lower()
        match = [a for a in allowed if a.lower() == key]
        if not match:
            raise MatlabError("MATLAB:InputParser:UnmatchedParameter",
                              f"'{to_str(name)}' is not a recognized parameter. For a list of valid "
                              f"name-value pair arguments, see the documentation for {fn}.")
        out[match[0]] = value
    return out


def _check_text_file(path: str, fn: str, options: dict[str, Any]) -> None:
    file_type = to_str(options["FileType"]).lower() if "FileType" in options else ""
    if file_type == "spreadsheet" or os.path.splitext(path)[1].lower() in _SPREADSHEETS:
        raise MatlabError(f"MATLAB:{fn}:SpreadsheetUnsupported",
                          "Spreadsheet files are not supported; save the sheet as CSV text.")


def _range_offsets(spec: Any, fn: str) -> tuple[int, int, int | None, int | None]:
    """A 'Range' ('B2', 'A1:C3' or [r1 c1 r2 c2]) as zero-based first row and
    column and exclusive last row/column (None: to the end)."""
    if is_text(spec):
        m = re.fullmatch(r"([A-Za-z]+)(\d+)(?::([A-Za-z]+)(\d+))?", to_str(spec).strip())
        if not m:
            raise MatlabError(f"MATLAB:{fn}:InvalidRange", f"Invalid range '{to_str(spec)}'.")
        col = _column_number(m.group(1))
        row = int(m.group(2)) - 1
        if m.group(3):
            return row, col, int(m.group(4)), _column_number(m.group(3)) + 1
        return row, col, None, None
    corners = to_array(spec).reshape(-1)
    if corners.size not in (2, 4):
        raise MatlabError(f"MATLAB:{fn}:InvalidRange", "Range must be [row col] or [r1 c1 r2 c2].")
    r1, c1 = int(corners[0]) - 1, int(corners[1]) - 1
    if corners.size == 4:
        return r1, c1, int(corners[2]), int(corners[3])
    return r1, c1, None, None


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def _read_rows(path: str, fn: str, options: dict[str, Any], detect_header: bool) -> list[list[str]]:
    _check_text_file(path, fn, options)
    lines = read_lines(path, fn)
    delim = delimiter_option(to_str(options["Delimiter"]), fn) if "Delimiter" in options \
        else detect_delimiter(lines)
    if "NumHeaderLines" in options:
        skip = int_value(options["NumHeaderLines"], fn)
    else:
        skip = header_line_count(lines, delim) if detect_header else 0
    rows = table_rows(lines, delim, skip)
    if "Range" in options:
        r1, c1, r2, c2 = _range_offsets(options["Range"], fn)
        rows = [row[c1:c2] for row in rows[r1:r2]]
    return rows


@builtin("readmatrix", category="files", nargin=(1, None))
def readmatrix(filename: Any, *args: Any) -> Any:
    """Read a numeric matrix from a delimited text file: A = readmatrix(file,
    'Delimiter', d, 'NumHeaderLines', n, 'Range', 'B2:D9', 'OutputType', cls,
    'EmptyValue', v).  Text and empty fields become NaN (or EmptyValue)."""
    options = _options(args, "readmatrix", ("Delimiter", "NumHeaderLines", "Range", "OutputType",
                                            "FileType", "EmptyValue"))
    path = text_arg(filename, "readmatrix", "file name")
    rows = _read_rows(path, "readmatrix", options, detect_header=True)
    fill = float(to_array(options["EmptyValue"]).reshape(-1)[0]) if "EmptyValue" in options else np.nan
    grid, _ = numeric_grid(rows, fill)
    if "OutputType" in options:
        grid = grid.astype(dtype_for_class(to_str(options["OutputType"])))
    return canonical(grid if grid.size else np.zeros((0, 0)))


@builtin("readcell", category="files", nargin=(1, None))
def readcell(filename: Any, *args: Any) -> Any:
    """Read a delimited text file into a cell array: numbers become doubles,
    other fields char vectors, empty fields [] (MATLAB: missing)."""
    options = _options(args, "readcell", ("Delimiter", "NumHeaderLines", "Range", "FileType"))
    rows = _read_rows(text_arg(filename, "readcell", "file name"), "readcell", options,
                      detect_header=False)
    width = max((len(r) for r in rows), default=0)
    data = np.empty((len(rows), width), dtype=object)
    for i, row in enumerate(rows):
        for j in range(width):
            field = row[j] if j < len(row) else ""
            number = parse_number(field)
            data[i, j] = number if number is not None else (
                char_array(field) if field else np.zeros((0, 0)))
    return CellArray(data)


def _dlm_offsets(args: tuple[Any, ...]) -> tuple[int, int, tuple[int, int, int, int] | None]:
    """(R1, C1, range) from dlmread's trailing arguments: R1, C1 [, range] or range."""
    if len(args) == 1 or len(args) == 3:
        corners = None if is_text(args[-1]) else to_array(args[-1]).reshape(-1)
        if corners is None or corners.size != 4:
            raise MatlabError("MATLAB:dlmread:InvalidRange", "Range must be [R1 C1 R2 C2].")
        r1, c1, r2, c2 = (int(v) for v in corners)
        return r1, c1, (r1, c1, r2, c2)
    row = int_value(args[0], "dlmread") if len(args) > 0 else 0
    col = int_value(args[1], "dlmread") if len(args) > 1 else 0
    return row, col, None


def _dlmread(path: str, delim: str | None, offsets: tuple[Any, ...], fn: str) -> Any:
    lines = read_lines(path, "dlmread")
    delim = detect_delimiter(lines) if not delim else delim
    row0, col0, box = _dlm_offsets(offsets)
    rows = [r[col0:] for r in table_rows(lines, delim, 0)[row0:]]
    grid, text_fields = numeric_grid(rows, 0.0)
    if text_fields:
        i, j, text = text_fields[0]
        raise MatlabError("MATLAB:textscan:handleErrorAndShowInfo",
                          "Mismatch between file and format character vector.\nTrouble reading 'Numeric' "
                          f"field from file (row number {i + row0 + 1}, field number {j + col0 + 1}) ==> {text}")
    if box is not None:
        grid = grid[: box[2] - box[0] + 1, : box[3] - box[1] + 1]
    return canonical(grid if grid.size else np.zeros((0, 0)))


@builtin("dlmread", category="files", nargin=(1, 5))
def dlmread(filename: Any, *args: Any) -> Any:
    """Read numeric data: M = dlmread(file, delimiter, R1, C1) with zero-based
    offsets, or dlmread(file, delimiter, [R1 C1 R2 C2]).  Empty fields are 0."""
    path = text_arg(filename, "dlmread", "file name")
    delim = None
    if args and is_text(args[0]):
        text = to_str(args[0])
        delim = delimiter_option(text.encode().decode("unicode_escape"), "dlmread") if text else None
        args = args[1:]
    return _dlmread(path, delim, args, "dlmread")


@builtin("csvread", category="files", nargin=(1, 4))
def csvread(filename: Any, *args: Any) -> Any:
    """Read a comma-separated numeric file: M = csvread(file, R1, C1) with
    zero-based offsets, or csvread(file, R1, C1, [R1 C1 R2 C2])."""
    return _dlmread(text_arg(filename, "csvread", "file name"), ",", args, "csvread")


# ------------------------------------------------------------------ write
def _field_text(value: Any, fn: str) -> str:
    """One element written as a field (numbers, logicals, text)."""
    if isinstance(value, (np.ndarray, float, bool, complex)):
        arr = to_array(value)
        if arr.dtype == CHAR_DTYPE:
            return to_str(arr) if arr.size else ""
        if arr.size == 0:
            return ""
        if arr.size != 1:
            raise MatlabError(f"MATLAB:{fn}:UnsupportedCellContents",
                              f"Unsupported cell contents: a {class_of(value)} array with more than one element.")
        return _number_text(arr.reshape(-1)[0], arr.dtype, 15)
    if isinstance(value, StringArray) and value.data.size == 1:
        text = value.data.reshape(-1)[0]
        return "" if text is None else text
    raise MatlabError(f"MATLAB:{fn}:UnsupportedCellContents",
                      f"Unsupported cell contents of class '{class_of(value)}'.")


def _number_text(x: Any, dtype: np.dtype, digits: int) -> str:
    if dtype == np.bool_:
        return "1" if x else "0"
    if dtype.kind in "iu":
        return str(int(x))
    if dtype == np.float32 or dtype == np.complex64:
        digits = min(digits, 7)
    if dtype.kind == "c":
        re_part = format_number(float(x.real), digits)
        im = float(x.imag)
        sign = "-" if im < 0 or (im == 0 and str(im).startswith("-")) else "+"
        return f"{re_part}{sign}{format_number(abs(im), digits)}i"
    return format_number(float(x), digits)


def _matrix_rows(value: Any, fn: str, delim: str) -> list[list[str]]:
    if isinstance(value, DeviceValue):
        value = value.gather()
    if isinstance(value, CellArray):
        raise MatlabError(f"MATLAB:{fn}:UnsupportedInputType", "Use writecell to write cell arrays.")
    if isinstance(value, StringArray):
        data = value.data.reshape(value.shape[0], -1, order="F")
        return [[quote_text(t or "", delim) for t in row] for row in data.tolist()]
    arr = to_array(value)
    if arr.dtype == CHAR_DTYPE:
        return [[quote_text("".join(row), delim)] for row in arr.reshape(arr.shape[0], -1, order="F").tolist()]
    arr = arr.reshape(arr.shape[0], -1, order="F")
    if arr.dtype == np.float64:
        return [[format_number(x, 15) for x in row] for row in arr.tolist()]
    return [[_number_text(x, arr.dtype, 15) for x in row] for row in arr]


def _write_rows(path: str, rows: list[list[str]], delim: str, append: bool, newline: str = "\n") -> None:
    text = "".join(delim.join(row) + newline for row in rows)
    old = b""
    if append and os.path.isfile(path):
        with open(path, "rb") as fh:
            old = fh.read()
    data = old + text.encode("utf-8")
    try:
        replace_file(os.path.expanduser(path), lambda fh: fh.write(data))
    except OSError as err:
        raise MatlabError("MATLAB:textio:textio:FileNotWritable",
                          f"Unable to open file '{path}' for writing: {err.strerror}.") from None


def _writer_options(args: tuple[Any, ...], fn: str, path: str) -> tuple[str, bool]:
    options = _options(args, fn, ("Delimiter", "WriteMode", "FileType", "QuoteStrings"))
    _check_text_file(path, fn, options)
    delim = delimiter_option(to_str(options["Delimiter"]), fn) if "Delimiter" in options else ","
    mode = to_str(options["WriteMode"]).lower() if "WriteMode" in options else "overwrite"
    if mode not in ("overwrite", "append"):
        raise MatlabError(f"MATLAB:{fn}:InvalidWriteMode", "WriteMode must be 'overwrite' or 'append'.")
    return delim, mode == "append"


@builtin("writematrix", category="files", nargin=(1, None), nargout=(0, 0))
def writematrix(value: Any, filename: Any = None, *args: Any) -> Any:
    """Write a matrix to a delimited text file: writematrix(A, file,
    'Delimiter', d, 'WriteMode', 'append').  Numbers keep 15 significant
    digits; N-D arrays are written as rows x (other dims).  Default file:
    matrix.txt."""
    path = "matrix.txt" if filename is None else text_arg(filename, "writematrix", "file name")
    delim, append = _writer_options(args, "writematrix", path)
    _write_rows(path, _matrix_rows(value, "writematrix", delim), delim, append)
    return None


@builtin("writecell", category="files", nargin=(1, None), nargout=(0, 0))
def writecell(value: Any, filename: Any = None, *args: Any) -> Any:
    """Write a cell array to a delimited text file: each cell holds a number,
    a logical, text or nothing.  Default file: cell.txt."""
    if not isinstance(value, CellArray):
        raise MatlabError("MATLAB:writecell:InvalidInput", "Input must be a cell array.")
    path = "cell.txt" if filename is None else text_arg(filename, "writecell", "file name")
    delim, append = _writer_options(args, "writecell", path)
    data = value.data.reshape(value.shape[0], -1, order="F")
    rows = [[quote_text(_field_text(item, "writecell"), delim) for item in row] for row in data]
    _write_rows(path, rows, delim, append)
    return None


def _dlm_text_rows(matrix: Any, delim: str, precision: Any, roffset: int, coffset: int) -> list[list[str]]:
    arr = to_array(matrix.gather() if isinstance(matrix, DeviceValue) else matrix)
    if arr.dtype == CHAR_DTYPE:
        cells = [[ch for ch in row] for row in arr.reshape(arr.shape[0], -1, order="F").tolist()]
    else:
        arr = arr.reshape(arr.shape[0], -1, order="F")
        if is_text(precision):
            fmt = to_str(precision)
            cells = [[_c_format(fmt, x) for x in row] for row in arr]
        else:
            digits = 5 if precision is None else int_value(precision, "dlmwrite")
            if arr.dtype == np.float64:
                cells = [[format_number(x, digits) for x in row] for row in arr.tolist()]
            else:
                cells = [[_number_text(x, arr.dtype, digits) for x in row] for row in arr]
    width = (len(cells[0]) if cells else 0) + coffset
    rows = [[""] * width for _ in range(roffset)]
    return rows + [[""] * coffset + row for row in cells]


def _c_format(fmt: str, x: Any) -> str:
    try:
        return fmt % (x.item() if hasattr(x, "item") else x)
    except (TypeError, ValueError):
        raise MatlabError("MATLAB:dlmwrite:InvalidPrecision", f"Invalid precision '{fmt}'.") from None


@builtin("dlmwrite", category="files", nargin=(2, None), nargout=(0, 0))
def dlmwrite(filename: Any, matrix: Any, *args: Any) -> Any:
    """Write a numeric matrix: dlmwrite(file, M, delimiter, R, C),
    dlmwrite(file, M, '-append', 'delimiter', d, 'precision', p,
    'newline', 'pc'|'unix', 'roffset', r, 'coffset', c).  5 significant
    digits unless 'precision' is given."""
    path = text_arg(filename, "dlmwrite", "file name")
    rest = list(args)
    append = False
    if rest and is_text(rest[0]) and to_str(rest[0]).lower() == "-append":
        append = True
        rest.pop(0)
    delim, precision, newline, roffset, coffset = ",", None, "\n", 0, 0
    names = {"delimiter", "precision", "newline", "roffset", "coffset"}
    if rest and is_text(rest[0]) and to_str(rest[0]).lower() not in names:
        delim = delimiter_option(to_str(rest.pop(0)).encode().decode("unicode_escape"), "dlmwrite")
        if rest:
            roffset = int_value(rest.pop(0), "dlmwrite")
        if rest:
            coffset = int_value(rest.pop(0), "dlmwrite")
    options = _options(tuple(rest), "dlmwrite", ("delimiter", "precision", "newline", "roffset",
                                                 "coffset"))
    if "delimiter" in options:
        delim = delimiter_option(to_str(options["delimiter"]).encode().decode("unicode_escape"), "dlmwrite")
    precision = options.get("precision")
    if "newline" in options:
        newline = "\r\n" if to_str(options["newline"]).lower() == "pc" else "\n"
    roffset = int_value(options["roffset"], "dlmwrite") if "roffset" in options else roffset
    coffset = int_value(options["coffset"], "dlmwrite") if "coffset" in options else coffset
    _write_rows(path, _dlm_text_rows(matrix, delim, precision, roffset, coffset), delim, append, newline)
    return None


@builtin("csvwrite", category="files", nargin=(2, 4), nargout=(0, 0))
def csvwrite(filename: Any, matrix: Any, row: Any = 0.0, col: Any = 0.0) -> Any:
    """Write a numeric matrix as comma-separated values (5 significant
    digits), starting after ``row`` empty rows and ``col`` empty columns."""
    path = text_arg(filename, "csvwrite", "file name")
    rows = _dlm_text_rows(matrix, ",", None, int_value(row, "csvwrite"), int_value(col, "csvwrite"))
    _write_rows(path, rows, ",", False)
    return None
