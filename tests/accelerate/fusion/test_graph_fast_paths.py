"""The hand-written fast paths of the fusion IR agree with the general code:
FNode's constructor (cost, complexity), broadcast_shapes' shortcuts and the
recursive walk (same post-order as the iterative one, deep graphs too)."""

from __future__ import annotations

import random
import sys

import pytest

from matfuse.accelerate.fusion import graph as g


def _reference_broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    n = max(len(a), len(b))
    a2 = a + (1,) * (n - len(a))
    b2 = b + (1,) * (n - len(b))
    out = []
    for x, y in zip(a2, b2):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise g.FusionShapeError("incompatible")
    while len(out) > 2 and out[-1] == 1:
        out.pop()
    return tuple(out)


SHAPES = [(1, 1), (3, 1), (1, 4), (3, 4), (2, 3, 4), (2, 1, 1), (5,), (1,), (0, 3),
          (3, 4, 1), (1, 1, 1), (2, 3, 1, 5)]


@pytest.mark.parametrize("a", SHAPES)
@pytest.mark.parametrize("b", SHAPES)
def test_broadcast_fast_paths_match_the_general_rule(a, b):
    try:
        expected = _reference_broadcast(a, b)
    except g.FusionShapeError:
        with pytest.raises(g.FusionShapeError):
            g.broadcast_shapes(a, b)
        return
    assert g.broadcast_shapes(a, b) == expected


def _random_graph(rng: random.Random, size: int) -> list[g.FNode]:
    nodes = [g.fill_node((4, 4), 1.0, "f64"), g.scalar_node(-2.0, "f64"),
             g.linspace_node(0.0, 1.0, 4, "f32")]
    for _ in range(size):
        pick = rng.random()
        if pick < 0.3:
            nodes.append(g.unary_node(rng.choice(["exp", "sqrt", "abs", "log"]), rng.choice(nodes)))
        else:
            nodes.append(g.binary_node(rng.choice(["add", "mul", "pow", "max"]),
                                       rng.choice(nodes), rng.choice(nodes)))
        if rng.random() < 0.1:
            nodes[-1].handle = object()  # stands for a materialised buffer
    return nodes


def test_constructor_cost_and_complexity_follow_their_definitions():
    rng = random.Random(3)
    for _ in range(50):
        for node in _random_graph(rng, 30):
            approx = 1 + sum(a.cost for a in node.args if a.handle is None)
            expected = approx if approx <= 32 else g._pending_count(node)
            if node.handle is None:
                assert node.cost == expected
            if node.handle is None:
                below = any(a.may_complex for a in node.args)
                assert node.may_complex == (below or g.needs_domain_check(node))


def test_walk_matches_the_iterative_post_order():
    rng = random.Random(7)
    for _ in range(200):
        root = _random_graph(rng, rng.randint(1, 40))[-1]
        for stop in (True, False):
            fast = [n.uid for n in g.walk(root, stop)]
            assert fast == [n.uid for n in g._walk_iteratively(root, stop)]


def test_walk_of_a_graph_deeper_than_the_stack():
    node = g.fill_node((2, 2), 1.0, "f64")
    for _ in range(3000):
        node = g.unary_node("exp", node)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        order = g.walk(node)
    finally:
        sys.setrecursionlimit(old)
    assert len(order) == 3001 and order[-1] is node and order[0].op == "fill"
