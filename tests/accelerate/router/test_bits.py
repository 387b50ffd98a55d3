"""Bit functions of gpuArrays stay on the device and give the host's exact
results (signed two's complement, doubles up to flintmax, shifts that drop
bits)."""

from __future__ import annotations

import io

import pytest

from tests.accelerate.router.snippet_check import check_snippet

SNIPPETS = [
    "r = bitand(U, uint8(7));", "r = bitor(U, uint8(7));", "r = bitxor(U, uint8(7));",
    "r = bitand(U, 12);", "r = bitxor(U, U(end:-1:1, :));", "r = bitand(I, int32(7));",
    "r = bitor(I, int32(-8));", "r = bitxor(int8(I), int8(-1));",
    "r = bitand(double(U) * 2^40 + 5, 2^40 + 4);", "r = bitor(double(U), double(U(:, end:-1:1)) + 1);",
    "r = bitxor(uint32(U) * 16777216, uint32(4294967295));",
    "r = bitshift(U, 2);", "r = bitshift(U, -1);", "r = bitshift(I, 3);", "r = bitshift(I, -2);",
    "r = bitshift(int8(I), 2);", "r = bitshift(uint16(U), 9);", "r = bitshift(double(U), 50);",
    "r = bitshift(double(U), 4, 'uint8');", "r = bitshift(double(U), -3);", "r = bitshift(U, 8);",
    "r = bitget(U, 3);", "r = bitget(I, 32);", "r = bitget(int8(I), 8);", "r = bitget(double(U), 2);",
    "r = bitset(U, 3);", "r = bitset(U, 3, 0);", "r = bitset(I, 32);", "r = bitset(int8(I), 8, 0);",
    "r = bitset(double(U), 53);",
    # signed assumed types: two's complement of doubles, the result double
    "r = bitshift(double(I), -1, 'int8');", "r = bitshift(double(I), 2, 'int8');",
    "r = bitshift(double(I), 8, 'int8');", "r = bitshift(double(I), 3, 'int16');",
    "r = bitshift(double(I), -3, 'int32');", "r = bitshift(double(U), 9, 'uint8');",
    "r = bitset(double(I), 8, 'int8');", "r = bitset(double(I), 2, 0, 'int8');",
    "r = bitset(double(I), 16, 1, 'int16');", "r = bitset(double(U), 8, 0, 'uint8');",
    "r = bitset(double(I), [1 2 3 4; 5 6 7 8; 1 1 1 1], 'int8');",
]


@pytest.mark.parametrize("code", SNIPPETS)
def test_bit_functions_stay_on_device(device, code):
    check_snippet(code, exact=True)


@pytest.mark.parametrize("code", ["bitand(gpuArray([1.5 2]), 3)", "bitor(gpuArray([-1 2]), 3)",
                                  "bitshift(gpuArray([300 2]), 1, 'uint8')",
                                  "bitshift(gpuArray([-129 2]), 1, 'int8')",
                                  "bitset(gpuArray([-3 200]), 1, 'int8')"])
def test_bad_double_raises_host_error(device, code):
    from matfuse import Session

    with pytest.raises(Exception) as info:
        Session(stdout=io.StringIO()).eval(code + ";")
    assert getattr(info.value, "identifier", "").endswith(":outOfRange")
