"""Installing the auto-offload hooks on first use.

The runtime's bootstrap hooks (``dispatcher.AUTO_OFFLOAD``) call
``install_auto_offload`` on the first builtin call or operator on arrays.
It reads the options in effect and loads only the planner: the device
router, with its fusion engine, loads with the first device operation
(``offload.activate`` loads it when the planner turns on).
"""

from __future__ import annotations

from matfuse.accelerate.facade import current_options
from matfuse.accelerate.planner.offload import install


def install_auto_offload() -> str:
    """Set the hooks for the options in effect; returns the planner's mode."""
    return install(current_options())
