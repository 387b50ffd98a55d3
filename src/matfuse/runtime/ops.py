"""Operators on MATLAB values (owned by the runtime-core work).

Contract used by the VM (implement exactly these names):

* ``binary(op: str, a, b)``: ``op`` one of ``+ - .* ./ .\\ .^ * / \\ ^ == ~= < <= > >=
  & |``. MATLAB class-combination rules, implicit expansion, integer
  saturation, complex promotion where MATLAB gives it. Fast path when both
  operands are ``float``. Delegates to the accelerate facade when an operand is
  a ``DeviceValue``.
* ``unary(op: str, a)``: ``-`` ``+`` ``~``.
* ``transpose(a)``, ``ctranspose(a)``.
* ``colon_range(start, step, stop)``: ``start:step:stop`` (``step`` may be None).
* ``concat(rows: list[list[value]])``: ``[a b; c d]`` with MATLAB's class rules
  (char wins over numbers, cells concatenate, structs concatenate, empty
  ``[]`` skipped).
* ``cell_concat(rows: list[list[value]])``: ``{a b; c d}``.
* ``is_true(v) -> bool``: ``if``/``while`` truth (all nonzero, non-empty).
"""
