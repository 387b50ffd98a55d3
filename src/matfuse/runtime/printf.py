"""MATLAB printf-family formatting (owned by the display/strings work).

Contract: ``format_printf(fmt: str, args: list) -> str`` implements
``sprintf``'s formatting with format recycling.
"""
