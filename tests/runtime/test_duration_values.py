"""duration and calendarDuration values: construction, formats, arithmetic,
conversion back to numbers, indexing, errors."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vm"))
from vmutil import run  # noqa: E402

from matfuse.runtime.duration_array import duration_text, short_number  # noqa: E402


def lines(code: str) -> list[str]:
    return [line.strip() for line in run(code).strip().splitlines() if line.strip()]


def error_of(code: str) -> str:
    return lines(f"try\n{code}\ncatch e\ndisp(e.identifier)\nend")[-1]


def test_duration_text_formats() -> None:
    ms = ((26 * 60 + 3) * 60 + 4.5678) * 1000
    assert duration_text(ms, "hh:mm:ss") == "26:03:04"
    assert duration_text(ms, "dd:hh:mm:ss") == "01:02:03:04"
    assert duration_text(ms, "mm:ss") == "1563:04"
    assert duration_text(ms, "hh:mm") == "26:03"
    assert duration_text(ms, "hh:mm:ss.SS") == "26:03:04.56"
    assert duration_text(-ms, "hh:mm:ss") == "-26:03:04"
    assert duration_text(ms, "h") == "26.051 hr"
    assert duration_text(float("nan"), "hh:mm:ss") == "NaN"
    assert short_number(123456.0) == "1.2346e+05"
    assert short_number(0.333333333) == "0.33333"


def test_unit_functions_convert_both_ways() -> None:
    out = lines("d = hours(2); disp(minutes(d)); disp(seconds(d)); disp(days(d));"
                "disp(milliseconds(seconds(1.5))); disp(years(days(365.2425)))")
    assert out == ["120", "7200", "0.0833", "1500", "1"]


def test_duration_constructor_forms() -> None:
    out = lines("disp(char(duration(1, 2, 3))); disp(char(duration([1 2 3; 4 5 6])));"
                "disp(char(duration(0, 0, 1, 250, 'Format', 'hh:mm:ss.SSS')));"
                "disp(char(duration('-1:02:03')))")
    assert out == ["01:02:03", "01:02:03", "04:05:06", "00:00:01.250", "-01:02:03"]
    assert error_of("duration(1, 2)") == "MATLAB:duration:InvalidNumericData"
    assert error_of("d = hours(1); d.Format = 'xyz';") == "MATLAB:duration:UnrecognizedFormat"
    assert error_of("duration([1 2], [1 2 3], 0)") == "MATLAB:duration:InputSizeMismatch"


def test_duration_arithmetic_and_errors() -> None:
    out = lines("d = minutes(90); disp(class(d + 1)); disp(hours(d + 1));"
                "disp(d / minutes(30)); disp(char(abs(-d))); disp(hours(mean([d hours(2)])));"
                "disp(hours(max(hours(1), hours(3))))")
    assert out == ["duration", "25.5000", "3", "90 min", "1.7500", "3"]
    assert error_of("x = hours(1) * hours(2);") == "MATLAB:UndefinedFunction"
    assert error_of("x = 2 / hours(2);") == "MATLAB:UndefinedFunction"


def test_duration_indexing_and_growth_fills_zero() -> None:
    out = lines("d = hours([1 2]); d(4) = hours(5); disp(hours(d)); d(1) = [];"
                "disp(size(d)); e = [d; d]; disp(size(e)); disp(hours(e(2, 3)))")
    assert out == ["1     2     0     5", "1     3", "2     3", "5"]


def test_calendar_durations() -> None:
    out = lines("disp(char(calyears(2) + calmonths(3) + calweeks(1) + caldays(1)));"
                "disp(char(calquarters(1))); disp(char(-calmonths(2)));"
                "disp(char(calendarDuration(1, 2, 3, 4, 5, 6)));"
                "disp(char(caldays(2) * 3)); c = [caldays(1) calmonths(1)]; disp(size(c));"
                "disp(iscalendarduration(c(2)))")
    assert out == ["2y 3mo 8d", "3mo", "-2mo", "1y 2mo 3d 4h 5m 6s", "6d", "1     2", "1"]
    assert error_of("caldays(1.5)") == "MATLAB:calendarDuration:NonintegerCalendarValues"


def test_ranges_of_durations_and_datetimes() -> None:
    out = lines("r = minutes(0):minutes(15):hours(1); disp(minutes(r));"
                "t = datetime(2020,1,30):calmonths(1):datetime(2020,5,1); disp(day(t))")
    assert out == ["0    15    30    45    60", "30    29    30    30"]


def test_rounding_durations() -> None:
    out = lines("d = seconds([1.5 -1.5 2.4]); disp(seconds(round(d))); disp(seconds(floor(d)));"
                "disp(seconds(ceil(d))); disp(minutes(round(minutes(2.5), 'minutes')))")
    assert out == ["2    -2     2", "1    -2     2", "2    -1     3", "3"]


def test_split_into_units() -> None:
    out = lines("[y, m, d] = split(calyears(1) + calmonths(14) + caldays(3), {'years','months','days'});"
                "disp([y m d]); [h, mi, s] = split(duration(26, 3, 4.5), {'hours','minutes','seconds'});"
                "disp([h mi s]); [dd, t] = split(caldays(10) + hours(5), {'days','time'});"
                "disp(dd); disp(hours(t)); c = split('a b', ' '); disp(numel(c))")
    assert out == ["2     2     3", "26.0000    3.0000    4.5000", "10", "5", "2"]
