"""Process-wide switch for the VM's liveness hints.

The VM tells device values whether their variable is read again
(``DeviceValue.bind_hint``) only once lazy device values exist, so scripts
that never use the fusion engine pay one global check per statement.
"""

ACTIVE = False


def activate() -> None:
    """Turn the hints on (called when the first lazy device value is made)."""
    global ACTIVE
    ACTIVE = True

# Set by the fusion engine (``accelerate/fusion/loop_trace.tracer_for``):
# ``(assigned names, iterations) -> tracer | None`` for replayable for loops.
loop_tracer = None

# Called when a top-level command (``Session.eval``/``run_file``) ends: the
# acceleration layer drops what it kept only for the command's own re-use
# (``device_indexing``'s uploaded index arrays).
command_end_hooks: list = []


def command_finished() -> None:
    for hook in command_end_hooks:
        hook()
