"""Unit tests of the fusion IR: shapes, dtypes, reduction geometry, costs."""

import pytest

from matfuse.accelerate.fusion import graph as g


def test_broadcast_shapes_follow_implicit_expansion():
    assert g.broadcast_shapes((3, 1), (1, 4)) == (3, 4)
    assert g.broadcast_shapes((2, 3, 4), (2, 1)) == (2, 3, 4)
    assert g.broadcast_shapes((5, 1, 1), (1, 1)) == (5, 1)
    with pytest.raises(g.FusionShapeError):
        g.broadcast_shapes((3, 2), (2, 3))


def test_single_wins_and_comparisons_are_logical():
    a = g.scalar_node(1.0, "f64")
    b = g.fill_node((2, 2), 1.0, "f32")
    assert g.binary_node("add", a, b).dtype == "f32"
    assert g.binary_node("lt", a, b).dtype == "bool"
    assert g.unary_node("exp", g.binary_node("lt", a, b)).dtype == "f64"


def test_reduce_geometry_for_contiguous_dims():
    assert g.reduce_geometry((16, 4, 5), (1, 2)) == (16, 20, 1)
    assert g.reduce_geometry((16, 4, 5), (0,)) == (1, 16, 20)
    assert g.reduce_geometry((16, 4, 5), None) == (1, 320, 1)
    assert g.reduce_geometry((16, 4, 5), (0, 2)) is None
    assert g.reduce_geometry((3, 4), (2,)) == (12, 1, 1)


def test_reduce_node_shapes():
    x = g.fill_node((16, 4, 5), 1.0, "f32")
    assert g.reduce_node("mean", x, (1, 2)).shape == (16, 1)
    assert g.reduce_node("sum", x, None).shape == (1, 1)
    assert g.reduce_node("sum", x, (0,)).shape == (1, 4, 5)
    assert g.reduce_node("sum", x, (0, 2)) is None


def test_cost_grows_with_chain_and_walk_is_post_order():
    x = g.linspace_node(0.0, 1.0, 10, "f64")
    y = g.unary_node("sin", x)
    z = g.binary_node("mul", y, y)
    # Below the exact-count threshold the cost is the operands' sum (an upper
    # bound that counts the shared y twice); above it, distinct nodes.
    assert z.cost == 1 + 2 * y.cost
    big = x
    for _ in range(40):
        big = g.binary_node("add", big, big)
    assert big.cost == 41  # exact: x and 40 adds, despite each add reading its operand twice
    order = g.walk(z)
    assert order[-1] is z
    assert order.index(x) < order.index(y)
    assert len(order) == 3
