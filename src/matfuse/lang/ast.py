"""AST node types produced by the parser and consumed by the compiler.

Every node carries ``span`` (line:col of its first token). Nodes are plain
slotted records (``_node_classes.node``: what ``dataclass(slots=True)``
gives, built faster); the compiler (``matfuse.vm.compiler``) lowers them to closures.
"""

from __future__ import annotations

from matfuse.lang._node_classes import NodeBase, field, finish_node_classes, node

from matfuse.errors import Span


@node
class Node(NodeBase):
    span: Span


# ----------------------------------------------------------------- expressions
@node
class Expr(Node):
    pass


@node
class Number(Expr):
    """A numeric literal; ``value`` is float, or complex for ``3i``.

    ``int_class`` is set for hex/binary literals (``0x1F`` -> ``"uint8"``,
    ``0xFFs8`` -> ``"int8"``); ``value`` then holds the integer as a float.
    """

    value: float | complex
    int_class: str | None = None


@node
class String(Expr):
    """``'char literal'`` (kind ``"char"``) or ``"string literal"`` (``"string"``)."""

    value: str
    kind: str = "char"


@node
class Ident(Expr):
    name: str


@node
class Colon(Expr):
    """A bare ``:`` used as an index (``x(:, 1)``)."""


@node
class End(Expr):
    """``end`` inside an index expression; the compiler binds it to the
    innermost enclosing indexed value and position."""


@node
class Binary(Expr):
    """Binary operator. ``op`` is the MATLAB spelling: ``+ - * / \\ ^ .* ./ .\\
    .^ == ~= < <= > >= & | && ||``."""

    op: str
    left: Expr
    right: Expr


@node
class Unary(Expr):
    """Prefix operator: ``-``, ``+`` or ``~`` (``!`` is normalised to ``~``)."""

    op: str
    operand: Expr


@node
class Postfix(Expr):
    """Postfix transpose: ``'`` (ctranspose) or ``.'`` (transpose)."""

    op: str
    operand: Expr


@node
class Range(Expr):
    """``start:stop`` or ``start:step:stop`` (``step`` is None for the first)."""

    start: Expr
    step: Expr | None
    stop: Expr


@node
class Index(Expr):
    """``base(args)`` (kind ``"()"``) or ``base{args}`` (kind ``"{}"``).

    A call ``f(x)`` is also an Index: whether ``f`` is a variable or a
    function is decided at run time by MATLAB's lookup order.
    """

    base: Expr
    args: list[Expr]
    kind: str = "()"


@node
class Field(Expr):
    """``base.name``."""

    base: Expr
    name: str


@node
class DynField(Expr):
    """``base.(expr)``."""

    base: Expr
    name_expr: Expr


@node
class Matrix(Expr):
    """``[a b; c d]``: ``rows`` is a list of rows, each a list of elements."""

    rows: list[list[Expr]]


@node
class CellLit(Expr):
    """``{a, b; c, d}``."""

    rows: list[list[Expr]]


@node
class AnonFunc(Expr):
    """``@(x, y) body``."""

    params: list[str]
    body: Expr


@node
class SuperRef(Expr):
    """``name@Superclass``: in a constructor, ``obj@Super(args)`` calls the
    superclass constructor; in a method, ``method@Super(obj, ...)`` calls the
    superclass's version of ``method``."""

    name: str
    superclass: str


@node
class FuncHandle(Expr):
    """``@name`` (``name`` may be dotted, e.g. ``pkg.fn``)."""

    name: str


# ------------------------------------------------------------------ statements
@node
class Stmt(Node):
    pass


@node
class Tilde(Expr):
    """``~`` placeholder in a multiple-assignment target list."""


@node
class ExprStmt(Stmt):
    """An expression statement; ``display`` is True when not ended by ``;``."""

    expr: Expr
    display: bool


@node
class Assign(Stmt):
    """``a = v``, ``a(i).f{k} = v`` or ``[a, ~, c] = f(x)``.

    Each target is an Ident, an Index/Field/DynField chain rooted at an
    Ident, or Tilde. ``multi`` is True for the bracketed form.
    """

    targets: list[Expr]
    value: Expr
    display: bool
    multi: bool = False


@node
class Command(Stmt):
    """Command syntax: ``format long``, ``hold on`` -> ``name('arg', ...)``."""

    name: str
    args: list[str]
    display: bool = True


@node
class If(Stmt):
    """``clauses`` holds (condition, body) for the if and each elseif."""

    clauses: list[tuple[Expr, list[Stmt]]]
    else_body: list[Stmt] | None = None


@node
class For(Stmt):
    """``for``/``parfor``; ``max_workers`` is ``M`` of ``parfor (i = r, M)``."""

    var: Expr
    iterable: Expr
    body: list[Stmt] = field(default_factory=list)
    parfor: bool = False
    max_workers: Expr | None = None


@node
class While(Stmt):
    cond: Expr
    body: list[Stmt] = field(default_factory=list)


@node
class Break(Stmt):
    pass


@node
class Continue(Stmt):
    pass


@node
class Return(Stmt):
    pass


@node
class Switch(Stmt):
    subject: Expr
    cases: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None = None


@node
class TryCatch(Stmt):
    body: list[Stmt]
    ident: str | None
    catch_body: list[Stmt]


@node
class Global(Stmt):
    names: list[str]


@node
class Persistent(Stmt):
    names: list[str]


@node
class Function(Node):
    """A function definition (primary, local or nested)."""

    name: str
    params: list[str]
    outputs: list[str]
    body: list[Stmt]
    nested: list["Function"] = field(default_factory=list)
    # ``arguments`` blocks at the start of the body (input validation).
    arguments: list["ArgumentsBlock"] = field(default_factory=list)


@node
class ArgumentsBlock(Node):
    """An ``arguments (attributes) ... end`` block; each entry is declared
    like a property (``name`` may be ``opts.Field`` for name-value input)."""

    attributes: dict[str, Expr | None]
    entries: list["PropertyDef"]


@node
class PropertyDef(Node):
    """One property of a ``properties`` block: ``name (1,1) double {mustBePositive} = 1``.

    ``size`` holds the dimension expressions (Number or Colon), ``class_name``
    the class constraint and ``validators`` the validation functions, each a
    name or a call whose arguments may name the property.
    """

    name: str
    default: Expr | None = None
    attributes: dict[str, Expr | None] = field(default_factory=dict)
    size: list[Expr] | None = None
    class_name: str | None = None
    validators: list[Expr] = field(default_factory=list)


@node
class MethodBlock(Node):
    """A ``methods (attributes) ... end`` block."""

    attributes: dict[str, Expr | None]
    functions: list["Function"]
    # Methods declared by signature only (abstract, or in their own file
    # of an @-folder).
    signatures: list[str] = field(default_factory=list)


@node
class ClassDef(Node):
    """A ``classdef`` file's class: attributes, superclasses and blocks.

    ``enumeration`` holds (member name, constructor arguments) pairs.
    """

    name: str
    attributes: dict[str, Expr | None]
    superclasses: list[str]
    properties: list[PropertyDef] = field(default_factory=list)
    methods: list[MethodBlock] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    enumeration: list[tuple[str, list[Expr]]] = field(default_factory=list)


@node
class Program(Node):
    """A parsed file or string (or a ``classdef`` file).

    A script has ``body`` statements and possibly local ``functions`` at the
    end; a function file has an empty ``body`` and ``functions[0]`` is the
    primary function. ``is_script`` tells which.
    """

    body: list[Stmt]
    functions: list[Function]
    is_script: bool
    # A classdef file's class (its local functions are in ``functions``).
    classdef: ClassDef | None = None
    # True when the text ends inside a function not closed by ``end`` (the
    # REPL keeps reading a function block until its ``end``).
    open_functions: bool = False


finish_node_classes()
