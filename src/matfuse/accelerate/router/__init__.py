"""The device router: one decision per operation with device operands
(fused kernel, provider hook, or host), its per-category device
implementations, and the entry the runtime calls (``entry.py``)."""
