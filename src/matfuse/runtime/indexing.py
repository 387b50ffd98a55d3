"""Indexing and indexed assignment (owned by the runtime-core work).

Contract used by the VM:

* ``COLON``: the marker passed for a bare ``:`` index.
* ``end_value(v, k: int, n: int) -> float``: value of ``end`` at position k
  (0-based) of n indices into ``v``.
* ``paren_get(v, idx: list)``: ``v(idx...)``.
* ``paren_set(v, idx: list, rhs)``: returns the new value of ``v`` after
  ``v(idx...) = rhs`` (``v`` is None for a variable that does not exist yet);
  ``rhs`` being the deletion marker ``DELETE`` means ``v(idx) = []``.
* ``brace_get(v, idx: list) -> list``: ``c{idx...}`` as a comma-separated list.
* ``brace_set(v, idx: list, rhs)``: new value after ``c{idx...} = rhs``.
* ``field_get(v, name: str) -> list``: ``s.name`` as a comma-separated list.
* ``field_set(v, name: str, rhs)``: new value after ``s.name = rhs``.
"""
