"""textscan's rows: its options, header lines, an empty format's column
count, and the format applied record by record (``scan_rows``) with the
field rules of ``_textscan_reader.Reader``.
"""

from __future__ import annotations

from typing import Any

from matfuse.errors import MatlabError
from matfuse.runtime.builtins._textscan_reader import NUMERIC_CLASS, Conversion, Options, Reader, unescape

_OPTION_NAMES = ("delimiter", "whitespace", "endofline", "headerlines", "commentstyle",
                 "multipledelimsasone", "emptyvalue", "treatasempty", "returnonerror", "expchars",
                 "collectoutput", "bufsize", "texttype", "datetimetype", "readvariablenames")


def _texts(value: Any, to_str: Any, is_text: Any) -> list[str]:
    from matfuse.runtime.values import CellArray
    if isinstance(value, CellArray):
        return [to_str(v) for v in value.data.reshape(-1, order="F")]
    return [to_str(value)] if is_text(value) else []


def read_options(pairs: dict[str, Any], to_str: Any, is_text: Any, flag: Any, number: Any) -> tuple[Options, bool, bool]:
    """(Options, delimiters given, CollectOutput) from lower-cased name-value pairs."""
    opt = Options()
    for name in pairs:
        if name not in _OPTION_NAMES:
            raise MatlabError("MATLAB:textscan:UnknownOption", f"'{name}' is not a textscan option.")
    delims_given = "delimiter" in pairs
    if delims_given:
        value = pairs["delimiter"]
        if is_text(value):
            opt.delimiters = list(unescape(to_str(value)))
        else:
            opt.delimiters = [unescape(t) for t in _texts(value, to_str, is_text)]
    if "whitespace" in pairs:
        opt.whitespace = unescape(to_str(pairs["whitespace"]))
    if "endofline" in pairs:
        eol = unescape(to_str(pairs["endofline"]))
        opt.end_of_line = [eol] if eol else []
    if "headerlines" in pairs:
        opt.header_lines = int(number(pairs["headerlines"]))
    if "commentstyle" in pairs:
        marks = [unescape(t) for t in _texts(pairs["commentstyle"], to_str, is_text)]
        opt.comment = (marks[0], marks[1] if len(marks) > 1 else "") if marks else None
    if "multipledelimsasone" in pairs:
        opt.multiple_delims_as_one = flag(pairs["multipledelimsasone"])
    if "emptyvalue" in pairs:
        opt.empty_value = number(pairs["emptyvalue"])
    if "treatasempty" in pairs:
        opt.treat_as_empty = _texts(pairs["treatasempty"], to_str, is_text)
    if "expchars" in pairs:
        opt.exp_chars = to_str(pairs["expchars"])
    collect = flag(pairs["collectoutput"]) if "collectoutput" in pairs else False
    return opt, delims_given, collect


def skip_header(reader: Reader, lines: int) -> None:
    for _ in range(lines):
        while not reader.at_end() and reader.end_of_line() is None:
            reader.pos += 1
        eol = reader.end_of_line()
        if eol:
            reader.pos += len(eol)


def columns_of_first_line(reader: Reader) -> int:
    """How many numeric fields the first data line holds (an empty format)."""
    start = reader.pos
    reader.skip_blank_lines()
    count = 0
    while not reader.at_end() and reader.end_of_line() is None:
        reader.field_start()
        if reader.end_of_line() is not None or reader.at_end():
            break
        count += 1
        if reader.delimiter() is None:
            if reader.number(None) is None:
                reader.plain(len(reader.text))
        reader.skip_space()
        d = reader.delimiter()
        if d:
            reader.pos += len(d)
            if reader.end_of_line() is not None or reader.at_end():
                count += 1
    reader.pos = start
    return max(count, 1)


def _match_literal(reader: Reader, literal: str) -> bool:
    reader.skip_space()
    if reader.text.startswith(literal, reader.pos):
        reader.pos += len(literal)
        return True
    if reader.delimiter() is not None:
        reader.field_start()
        while reader.delimiter() is not None:
            reader.pos += len(reader.delimiter())
            reader.skip_space()
        if reader.text.startswith(literal, reader.pos):
            reader.pos += len(literal)
            return True
    return False


def _read_field(reader: Reader, conv: Conversion) -> tuple[bool, Any]:
    """(read, value) of one conversion; read is False where the row stops."""
    if conv.kind == "c":
        reader.skip_space()
        if reader.at_end():
            return False, None
        return True, reader.chars(conv.width)
    reader.field_start()
    if reader.at_end():
        return False, None
    if conv.kind in NUMERIC_CLASS:
        if reader.at_field_end() or reader.treat_as_empty():
            value: Any = reader.opt.empty_value
        else:
            value = reader.number(conv.width)
            if value is None:
                return False, None
        reader.field_end()
        return True, value
    if reader.treat_as_empty():
        value = ""
    else:
        value = reader.word(conv)
    if conv.kind != "[":
        reader.field_end()
    return True, value


def scan_rows(reader: Reader, items: list[Any],
              count: int | None) -> tuple[list[list[Any]], list[Conversion]]:
    """The values of each kept conversion (and the conversions), row by row."""
    convs = [i for i in items if isinstance(i, Conversion)]
    columns: list[list[Any]] = [[] for _ in convs]
    rows = 0
    while count is None or rows < count:
        reader.skip_blank_lines()
        if reader.at_end():
            break
        start, k, complete = reader.pos, 0, True
        for item in items:
            if isinstance(item, Conversion):
                ok, value = _read_field(reader, item)
                if not ok:
                    complete = False
                    break
                columns[k].append(value)
                k += 1
            elif item[0] == "literal":
                if not _match_literal(reader, item[1]):
                    complete = False
                    break
            else:
                reader.skip_space()
        rows += 1
        if complete and reader.pos == start:
            break                      # nothing read: the format cannot advance here
        if not complete:
            if reader.pos == start and k == 0:
                rows -= 1
            else:
                for j in range(k, len(convs)):
                    columns[j].append(reader.opt.empty_value if convs[j].kind in NUMERIC_CLASS else "")
            break
    return [col for conv, col in zip(convs, columns) if not conv.skip], \
        [conv for conv in convs if not conv.skip]
