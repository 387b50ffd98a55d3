"""The AST's slotted record classes behave as ``dataclass(slots=True)`` did."""

import pytest

from matfuse.lang import ast
from matfuse.lang._node_classes import NodeBase, field, finish_node_classes, node


def test_fields_in_order_with_defaults_and_fresh_factories():
    loop = ast.For(None, ast.Ident(None, "k"), ast.Number(None, 1.0))
    other = ast.For(None, ast.Ident(None, "k"), ast.Number(None, 1.0))
    loop.body.append(ast.Break(None))
    assert other.body == []                      # each instance its own list
    assert loop.parfor is False and loop.max_workers is None
    assert ast.For._fields == ("span", "var", "iterable", "body", "parfor", "max_workers")
    assert ast.For.__match_args__ == ast.For._fields
    explicit = ast.Function(None, "f", [], [], [], None)
    assert explicit.nested is None               # an explicit value is kept, even None


def test_equality_repr_hash_and_slots():
    a = ast.Binary(None, "+", ast.Number(None, 1.0), ast.Ident(None, "x"))
    b = ast.Binary(None, "+", ast.Number(None, 1.0), ast.Ident(None, "x"))
    assert a == b and a != ast.Binary(None, "-", a.left, a.right)
    assert ast.Ident(None, "x") != ast.String(None, "x")
    assert repr(ast.Ident(None, "x")) == "Ident(span=None, name='x')"
    with pytest.raises(TypeError):
        hash(a)
    with pytest.raises(AttributeError):
        a.extra = 1
    assert isinstance(a, ast.Expr) and isinstance(a, ast.Node)


def test_positional_and_keyword_arguments():
    n = ast.Number(span=None, value=2.0, int_class="uint8")
    assert (n.value, n.int_class) == (2.0, "uint8")
    with pytest.raises(TypeError):
        ast.Number(None)                        # value has no default


def test_a_required_field_after_a_default_is_refused():
    class Base(NodeBase):
        __slots__ = ()

    with pytest.raises(TypeError, match="without a default"):
        @node
        class Bad(Base):
            first: int = 1
            second: int

    @node
    class Good(Base):
        items: list = field(default_factory=list)

    finish_node_classes()
    assert Good().items == []
