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

# Set by the fusion engine (``accelerate/fusion/executor.site_forecaster``):
# ``(compiled script, (interpreter id, path) | None) -> forecasts | None`` at
# a script's entry; the VM calls ``leave()`` on the result when the script
# ends (``fusion/forecast.py``).
site_forecaster = None

# Set by the fusion engine (``accelerate/fusion/executor.file_forecaster``):
# ``(interpreter id, path) -> forecasts | None`` before the VM checks and
# loads a script file it was asked to run; the VM calls ``abandon()`` on the
# result afterwards.
file_forecaster = None

# Called when a top-level command (``Session.eval``/``run_file``) ends: the
# acceleration layer drops what it kept only for the command's own re-use
# (``device_indexing``'s uploaded index arrays).
command_end_hooks: list = []


def command_finished() -> None:
    for hook in command_end_hooks:
        hook()
