"""datetime values: construction, text parsing and formatting, properties,
indexing and assignment, concatenation, arithmetic, comparisons, errors."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vm"))
from vmutil import run  # noqa: E402

from matfuse.runtime.datetime_format import (  # noqa: E402
    fields_of,
    format_datetime,
    ms_from_fields,
    parse_datetime,
)


def lines(code: str) -> list[str]:
    return [line.strip() for line in run(code).strip().splitlines() if line.strip()]


def error_of(code: str) -> str:
    return lines(f"try\n{code}\ncatch e\ndisp(e.identifier)\nend")[-1]


def test_fields_round_trip_over_four_centuries() -> None:
    for year in (1600, 1899, 1900, 1970, 2000, 2024, 2100):
        for month in (1, 2, 12):
            ms = ms_from_fields(year, month, 28, 23, 59, 58.5)
            f = fields_of(ms)
            assert (f.year, f.month, f.day, f.hour, f.minute, f.second, f.microsecond) == \
                (year, month, 28, 23, 59, 58, 500000)


def test_format_letters() -> None:
    ms = ms_from_fields(2014, 4, 19, 21, 41, 6.12345)
    assert format_datetime(ms, "yyyy-MM-dd") == "2014-04-19"
    assert format_datetime(ms, "eeee, MMMM d, yyyy h:mm a") == "Saturday, April 19, 2014 9:41 PM"
    assert format_datetime(ms, "dd.MM.yy HH:mm:ss.SSS") == "19.04.14 21:41:06.123"
    assert format_datetime(ms, "yyyy-MM-dd'T'HH:mm") == "2014-04-19T21:41"
    assert format_datetime(ms, "D") == "109"
    assert format_datetime(float("nan"), "yyyy") == "NaT"


def test_parse_with_formats() -> None:
    assert parse_datetime("2014-04-19", "yyyy-MM-dd", 1970) == ms_from_fields(2014, 4, 19)
    assert parse_datetime("19-apr-2014 21:41", "dd-MMM-yyyy HH:mm", 1970) == \
        ms_from_fields(2014, 4, 19, 21, 41)
    assert parse_datetime("4/19/14 9:41 PM", "M/d/yy h:mm a", 1970) == \
        ms_from_fields(2014, 4, 19, 21, 41)
    assert parse_datetime("2014-02-30", "yyyy-MM-dd", 1970) is None
    assert parse_datetime("2014-04", "yyyy-MM-dd", 1970) is None


def test_default_display_drops_midnight_times() -> None:
    assert lines("disp(char(datetime(2020,1,15)))") == ["15-Jan-2020"]
    assert lines("disp(char(datetime(2020,1,15,0,0,1)))") == ["15-Jan-2020 00:00:01"]
    out = lines("x = [datetime(2020,1,15) datetime(2020,1,15,6,0,0)]")
    assert out[-1] == "15-Jan-2020 00:00:00   15-Jan-2020 06:00:00"


def test_relative_days() -> None:
    out = lines("t = datetime('today'); y = datetime('yesterday'); m = datetime('tomorrow');"
                "disp(hours(t - y)); disp(hours(m - t)); disp(hour(t) + minute(t));"
                "n = datetime('now'); disp(n >= t && n < m); disp(isdatetime(datetime))")
    assert out == ["24", "24", "0", "1", "1"]


def test_text_arrays_keep_their_shape() -> None:
    out = lines("t = datetime({'2020-01-01'; '2021-06-30'}); disp(size(t)); "
                "s = datetime([\"2020-01-01\" \"2020-02-01\"]); disp(size(s)); disp(month(s))")
    assert out == ["2     1", "1     2", "1     2"]


def test_indexing_assignment_and_growth() -> None:
    out = lines("t = datetime(2020,1,1:3); disp(size(t)); u = t([3 1]); disp(day(u));"
                "t(5) = datetime(2020,2,2); disp(isnat(t)); t(end) = []; disp(numel(t));"
                "t(2) = '2021-07-04'; disp(year(t(2)))")
    assert out == ["1     3", "3     1", "0   0   0   1   0", "4", "2021"]


def test_concatenation_converts_text_and_rejects_numbers() -> None:
    assert lines("t = [datetime(2020,1,1), '2020-01-05']; disp(day(t))") == ["1     5"]
    assert error_of("t = [datetime(2020,1,1), 5];") == "MATLAB:invalidConversion"
    assert error_of("t = [datetime(2020,1,1), hours(1)];") == "MATLAB:invalidConversion"


def test_arithmetic_rules() -> None:
    out = lines("d = datetime(2020,3,1); disp(char(d - 1)); disp(class(d - d));"
                "disp(char(d + hours(1:2)));"
                "disp(char(datetime(2021,1,31) + calmonths(1:3)))")
    assert out == ["29-Feb-2020", "duration", "01-Mar-2020 01:00:00", "01-Mar-2020 02:00:00",
                   "28-Feb-2021", "31-Mar-2021", "30-Apr-2021"]
    assert error_of("d = datetime(2020,1,1) + datetime(2020,1,1);") == \
        "MATLAB:datetime:DatetimeAdditionNotDefined"
    assert error_of("d = datetime(2020,1,1) * 2;") == "MATLAB:UndefinedFunction"
    assert error_of("d = 5 - datetime(2020,1,1);") == "MATLAB:datetime:SubtractionNotDefined"


def test_comparisons_with_text_and_nat() -> None:
    out = lines("d = datetime(2020,1,1:3); disp(d > '2020-01-01'); disp(NaT == NaT);"
                "disp(isequal(d, d)); disp(isequaln([d NaT], [d NaT]))")
    assert out == ["0   1   1", "0", "1", "1"]


def test_properties_set_and_errors() -> None:
    out = lines("t = datetime(2020,1,31); t.Month = 2; disp(char(t)); t.Format = 'defaultdate';"
                "disp(t.Format); t.TimeZone = 'UTC'; disp(t.TimeZone)")
    assert out == ["02-Mar-2020", "dd-MMM-uuuu", "UTC"]
    assert error_of("t = datetime(2020,1,1); t.Nope") == "MATLAB:noSuchMethodOrField"
    assert error_of("t = datetime(2020,1,1); t.Format = 'yyyy-QQQQ-B';") == \
        "MATLAB:datetime:UnsupportedSymbol"


def test_construction_errors() -> None:
    assert error_of("datetime(1, 2)") == "MATLAB:datetime:InvalidNumericData"
    assert error_of("datetime([1 2], [1 2 3], 1)") == "MATLAB:datetime:InputSizeMismatch"
    assert error_of("datetime(1, 'ConvertFrom', 'nonsense')") == \
        "MATLAB:datetime:UnrecognizedConvertFrom"
    assert error_of("datetime('2020-01-01', 'Bogus', 1)") == \
        "MATLAB:datetime:InvalidParameterName"


def test_between_components_and_dateshift_rules() -> None:
    out = lines("a = datetime(2020,1,31); b = datetime(2020,3,1,6,0,0);"
                "disp(char(between(a, b))); disp(char(between(b, a)));"
                "disp(char(between(a, b, 'days'))); disp(char(between(a, b, {'months','days'})));"
                "disp(char(dateshift(datetime(2020,5,17,13,45,0), 'start', 'hour')));"
                "disp(char(dateshift(datetime(2020,5,17), 'start', 'week')));"
                "disp(char(dateshift(datetime(2020,5,17), 'start', 'month', 'previous')))")
    assert out == ["1mo 1d 6h 0m 0s", "-1mo -1d -6h 0m 0s", "30d", "1mo 1d",
                   "17-May-2020 13:00:00", "17-May-2020", "01-Apr-2020"]


@pytest.mark.parametrize("n", [10, 20])
def test_components_of_long_arrays_are_elementwise(n: int) -> None:
    code = f"t = datetime(2020,1,1) + caldays(0:{n - 1}); disp(sum(day(t)))"
    assert lines(code) == [str(sum(range(1, n + 1)))]
    assert np.isclose(float(lines(f"disp(numel(datetime(2020,1,1:{n})))")[0]), n)


def test_shape_and_set_functions() -> None:
    out = lines("t = datetime(2020,1,1:3); disp(size(repmat(t, 2, 1))); disp(size(reshape(t, 3, 1)));"
                "disp(day(fliplr(t))); disp(day(circshift(t, 1))); disp(size(t.'));"
                "[u, ia] = unique([t(2) t(1) t(2)]); disp(day(u)); disp(ia');"
                "disp(ismember('2020-01-03', t)); disp(hour(linspace(t(1), t(2), 5)))")
    assert out == ["2     3", "3     1", "3     2     1", "3     1     2", "3     1",
                   "1     2", "2     1", "1", "0     6    12    18     0"]


def test_time_zones_attach_convert_and_align() -> None:
    out = lines("t = datetime(2020,6,1,12,0,0, 'TimeZone', 'UTC'); t.TimeZone = 'America/New_York';"
                "disp(char(t)); u = datetime(2020,6,1,12,0,0); u.TimeZone = 'Europe/Paris';"
                "disp(char(u)); a = datetime(2020,1,1,12,0,0,'TimeZone','UTC');"
                "b = datetime(2020,1,1,7,0,0,'TimeZone','America/New_York');"
                "disp(a == b); disp(hours(a - b))")
    assert out == ["01-Jun-2020 08:00:00", "01-Jun-2020 12:00:00", "1", "0"]
    assert error_of("datetime(2020,1,1,'TimeZone','Mars/Olympus')") == \
        "MATLAB:datetime:UnknownTimeZone"
    assert error_of("d = datetime(2020,1,1,'TimeZone','UTC') - datetime(2020,1,1);") == \
        "MATLAB:datetime:IncompatibleTZ"


def test_isweekend_and_isbetween() -> None:
    out = lines("t = datetime(2024,1,5:8); disp(isweekend(t));"
                "disp(isbetween(t, datetime(2024,1,6), '2024-01-07'));"
                "disp(isbetween(t, datetime(2024,1,6), '2024-01-08', 'openleft'))")
    assert out == ["0   1   1   0", "0   1   1   0", "0   0   1   1"]


def test_function_application_over_datetimes() -> None:
    out = lines("t = datetime(2020,1,1:3); disp(arrayfun(@(x) day(x), t));"
                "disp(cellfun(@year, {t(1), t(2)})); disp(feval('month', t(3)));"
                "c = arrayfun(@(x) x + 1, t, 'UniformOutput', false); disp(char(c{3}))")
    assert out == ["1     2     3", "2020        2020", "1", "04-Jan-2020"]


def test_pivot_year_reads_two_digit_years() -> None:
    out = lines("disp(char(datetime('01/02/69', 'InputFormat', 'MM/dd/yy', 'PivotYear', 1900)));"
                "disp(char(datetime('01/02/69', 'InputFormat', 'MM/dd/yy', 'PivotYear', 2000)))")
    assert out == ["02-Jan-1969", "02-Jan-2069"]
    assert error_of("datetime('01/02/69', 'PivotYear', 1.5)") == "MATLAB:datetime:InvalidPivotYear"


def test_dateshift_ends_and_days_of_week() -> None:
    """MATLAB's documented examples: 9:14 on 27-Jun-2021 (a Sunday)."""
    out = lines("t = datetime(2021,6,27,9,14,0);"
                "disp(char(dateshift(t, 'end', 'hour'))); disp(char(dateshift(t, 'end', 'month')));"
                "disp(char(dateshift(t, 'end', 'month', 'next')));"
                "disp(day(dateshift(t, 'dayofweek', 'Friday')));"
                "disp(day(dateshift(t, 'dayofweek', 1)));"
                "disp(day(dateshift(t, 'dayofweek', 'weekday')));"
                "disp(day(dateshift(t, 'dayofweek', 'Mon', 'previous')));"
                "disp(day(dateshift(t, 'dayofweek', 'weekend', 3)))")
    assert out == ["27-Jun-2021 10:00:00", "30-Jun-2021", "31-Jul-2021", "2", "27", "28", "21",
                   "10"]
