"""Display of values (owned by the display/strings work).

Contract used by the VM:

* ``display_value(name: str, value, fmt: str) -> str``: what MATLAB prints for
  ``name = value`` without a semicolon (``fmt`` is ``short`` or ``long``).
* ``disp_text(value, fmt: str) -> str``: what ``disp(value)`` prints.
"""
