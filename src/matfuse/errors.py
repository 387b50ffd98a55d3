"""The one error hierarchy of matfuse.

Every failure a MATLAB user can cause is a :class:`MatlabError`: it carries a
MATLAB identifier (``MATLAB:badsubscript``), a message, and the source span of
the statement that raised it. It is also the value bound by ``catch err`` (an
``MException`` in MATLAB terms), so ``err.identifier``/``err.message``/
``err.stack`` work on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    """A position in MATLAB source: 1-based line and column, plus the file.

    ``file`` is a path for files, ``None`` for strings typed at the REPL or
    passed to ``eval``/``-e``. ``source`` is the full text, kept so an error
    can print the offending line with a caret.
    """

    line: int
    col: int
    file: str | None = None
    source: str | None = field(default=None, compare=False, repr=False)

    def source_line(self) -> str | None:
        """The text of the line this span points into, or None."""
        if self.source is None:
            return None
        lines = self.source.splitlines()
        if 1 <= self.line <= len(lines):
            return lines[self.line - 1]
        return None

    def caret_text(self) -> str:
        """``file:line:col`` header, the source line and a caret under ``col``."""
        where = f"{self.file or '<input>'}:{self.line}:{self.col}"
        text = self.source_line()
        if text is None:
            return where
        expanded = text.replace("\t", " ")
        return f"{where}\n{expanded}\n{' ' * (self.col - 1)}^"


@dataclass(slots=True)
class StackFrame:
    """One entry of ``MException.stack``: function name, file and line."""

    name: str
    file: str | None
    line: int


class MatlabError(Exception):
    """A MATLAB-level error (``MException``).

    Args:
        identifier: MATLAB identifier such as ``MATLAB:UndefinedFunction``;
            empty string when the error has none (``error('text')``).
        message: the message text, already formatted.
        span: where in the source the error happened; filled in by the VM
            when the raising code did not know it.
    """

    def __init__(self, identifier: str, message: str, span: Span | None = None):
        super().__init__(message)
        self.identifier = identifier
        self.message = message
        self.span = span
        self.stack: list[StackFrame] = []
        self.cause: list[MatlabError] = []
        # Name of the builtin or function that raised it, for "Error using NAME".
        self.function_name: str | None = None

    def with_span(self, span: Span | None) -> "MatlabError":
        """Attach ``span`` if no span is known yet; returns self."""
        if self.span is None and span is not None:
            self.span = span
        return self

    def report(self) -> str:
        """MATLAB's uncaught-error text: ``Error using f`` / message / ``Error in``."""
        lines: list[str] = []
        if self.function_name:
            lines.append(f"Error using {self.function_name}")
            lines.append(self.message)
        else:
            lines.append(f"Error: {self.message}")
        if self.span is not None and self.span.file is not None:
            lines.append(f"Error in {self.span.file} (line {self.span.line})")
        if self.span is not None:
            text = self.span.source_line()
            if text is not None:
                lines.append(text.replace("\t", " "))
                lines.append(" " * (self.span.col - 1) + "^")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"MatlabError({self.identifier!r}, {self.message!r})"


class MatlabSyntaxError(MatlabError):
    """A parse error: reported with file, line, column, source line and caret."""

    def __init__(self, message: str, span: Span | None = None,
                 identifier: str = "MATLAB:parse"):
        super().__init__(identifier, message, span)

    def report(self) -> str:
        if self.span is None:
            return f"Error: {self.message}"
        return f"Error: {self.message}\n{self.span.caret_text()}"


class MatlabInterrupt(MatlabError):
    """Ctrl-C during execution: stops the statement, keeps the session."""

    def __init__(self) -> None:
        super().__init__("MATLAB:interrupted", "Operation terminated by user.")


# The most dimensions an array can have here (NumPy's limit).
MAX_DIMENSIONS = 64


def too_many_dimensions_error() -> MatlabError:
    """An array of more dimensions than matfuse's arrays support."""
    return MatlabError("matfuse:tooManyDimensions",
                       f"Arrays with more than {MAX_DIMENSIONS} dimensions are not supported.")


def undefined_function(name: str, span: Span | None = None) -> MatlabError:
    """MATLAB's error for an unknown name used as a function or variable."""
    return MatlabError(
        "MATLAB:UndefinedFunction",
        f"Unrecognized function or variable '{name}'.",
        span,
    )


# Messages of NumPy exceptions that always mean "array too large to index".
_NUMPY_SIZE_MESSAGES = ("Maximum allowed dimension exceeded", "array is too big",
                        "Maximum allowed size exceeded")


def out_of_memory(on_device: bool = False) -> MatlabError:
    """MATLAB's out-of-memory error (host memory, or a GPU's)."""
    if on_device:
        return MatlabError("parallel:gpu:array:OOM",
                           "Out of memory on device. To view more detail about available "
                           "memory on the GPU, use 'gpuDevice()'.")
    return MatlabError("MATLAB:nomem", "Out of memory. Type \"help memory\" for your options.")


def file_io_error(exc: OSError) -> MatlabError:
    """An operating-system failure of a file operation (disk full, no
    permission, ...), in MATLAB's words rather than Python's."""
    reason = exc.strerror or "input/output error"
    where = f" ({exc.filename})" if exc.filename else ""
    return MatlabError("MATLAB:FileIO:OperationFailed", f"File operation failed{where}: {reason}.")


def from_python_exception(exc: BaseException) -> MatlabError:
    """The MATLAB error a user sees for a Python exception that escaped
    runtime code: the one error boundary of the VM and the session API.

    Memory, recursion and NumPy size failures have MATLAB equivalents;
    anything else is a matfuse bug and becomes ``matfuse:internalError``
    (kept as the last resort, naming the Python exception for the report).
    """
    if isinstance(exc, MatlabError):
        return exc
    if isinstance(exc, RecursionError):
        return MatlabError("MATLAB:recursionLimit", "Maximum recursion limit reached.")
    if isinstance(exc, MemoryError):
        module = type(exc).__module__ or ""
        return out_of_memory(on_device=module.split(".")[0] in ("cupy", "cupy_backends", "wgpu"))
    if type(exc).__name__ == "ComplexWarning":
        return MatlabError("MATLAB:expectedReal", "Expected input to be real.")
    text = str(exc)
    if isinstance(exc, ValueError) and any(m in text for m in _NUMPY_SIZE_MESSAGES):
        return MatlabError("MATLAB:pmaxsize", "Maximum variable size allowed by the program is exceeded.")
    if isinstance(exc, ValueError) and "maximum supported dimension for an ndarray" in text:
        return too_many_dimensions_error()
    if isinstance(exc, OSError):
        return file_io_error(exc)
    return MatlabError("matfuse:internalError",
                       f"Internal error ({type(exc).__name__}: {text or 'no message'}); "
                       "please report this.")
