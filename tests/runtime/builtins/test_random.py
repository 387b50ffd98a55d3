"""rand/randn/randi/randperm/rng: MATLAB's twister stream and the philox generator."""

from __future__ import annotations

import numpy as np
import pytest

from builtins_b_support import call, raises, row, text
from matfuse.runtime import _philox, _rng
from matfuse.runtime.values import StructArray


@pytest.fixture(autouse=True)
def default_generator():
    _rng.GENERATOR.reseed(0, "twister")
    yield
    _rng.GENERATOR.reseed(0, "twister")


def test_rng_default_matches_matlab_rand() -> None:
    call("rng", text("default"), nargout=0)
    np.testing.assert_allclose(call("rand", 1.0, 4.0), [[0.8147236863931789, 0.9057919370756192,
                                                         0.1269868162935061, 0.9133758561390194]])


def test_rng_seeds_match_matlab() -> None:
    call("rng", 1.0, nargout=0)
    assert call("rand") == pytest.approx(0.417022004702574, abs=1e-15)
    call("rng", 42.0, nargout=0)
    assert call("rand") == pytest.approx(0.3745401188473625, abs=1e-15)
    call("rng", 0.0, text("twister"), nargout=0)
    assert call("rand") == pytest.approx(0.8147236863931789)


def test_column_major_fill() -> None:
    call("rng", 0.0, nargout=0)
    m = call("rand", 2.0, 2.0)
    call("rng", 0.0, nargout=0)
    flat = call("rand", 1.0, 4.0)
    np.testing.assert_array_equal(m.reshape(-1, order="F"), flat.reshape(-1))


def test_randi_derives_from_rand() -> None:
    call("rng", 0.0, nargout=0)
    np.testing.assert_array_equal(call("randi", 10.0, 1.0, 5.0), [[9, 10, 2, 10, 7]])
    values = call("randi", row(-2, 2), 1.0, 1000.0)
    assert values.min() >= -2 and values.max() <= 2
    ints = call("randi", 5.0, 2.0, 3.0, text("int8"))
    assert ints.dtype == np.int8 and ints.shape == (2, 3)
    raises("MATLAB:randi:invalidLimits", "randi", 0.0)
    raises("MATLAB:randi:invalidLimits", "randi", row(3, 1))


def test_state_struct_round_trip() -> None:
    s = call("rng")
    assert isinstance(s, StructArray) and s.fields == ["Type", "Seed", "State"]
    a = call("rand", 1.0, 3.0)
    call("rng", s, nargout=0)
    np.testing.assert_array_equal(call("rand", 1.0, 3.0), a)
    old = call("rng", 5.0, nargout=1)   # returns the settings before the change
    assert "".join(old.data[0, 0]["Type"].reshape(-1)) == "twister"


def test_randn_deterministic_and_normal() -> None:
    call("rng", 3.0, nargout=0)
    a = call("randn", 1.0, 5.0)
    call("rng", 3.0, nargout=0)
    np.testing.assert_array_equal(call("randn", 1.0, 5.0), a)
    big = call("randn", 20000.0, 1.0)
    assert abs(big.mean()) < 0.05 and abs(big.std() - 1) < 0.05


def test_philox_generator_uses_reference_stream() -> None:
    call("rng", 7.0, text("philox"), nargout=0)
    a = call("rand", 2.0, 3.0)
    expect = _philox.philox_uniform(6, (7, 0), 0).reshape(2, 3, order="F")
    np.testing.assert_array_equal(a, expect)
    b = call("rand", 1.0, 2.0)   # continues after ceil(6/2) = 3 blocks
    np.testing.assert_array_equal(b.reshape(-1), _philox.philox_uniform(2, (7, 0), 3))
    z = call("randn", 1.0, 3.0)
    np.testing.assert_array_equal(z.reshape(-1), _philox.philox_normal(3, (7, 0), 4))
    s = call("rng")
    c = call("rand")
    call("rng", s, nargout=0)
    assert call("rand") == c


def test_classes_and_sizes() -> None:
    assert call("rand", 2.0, 3.0, text("single")).dtype == np.float32
    assert call("randn", row(2, 3, 4)).shape == (2, 3, 4)
    assert call("rand", 0.0, 3.0).shape == (0, 3)
    assert isinstance(call("rand"), float)
    raises("MATLAB:rand:invalidOutputType", "rand", 2.0, text("int8"))


def test_randperm() -> None:
    p = call("randperm", 10.0)
    assert sorted(p.reshape(-1).tolist()) == list(range(1, 11))
    q = call("randperm", 10.0, 3.0)
    assert q.shape == (1, 3) and len(set(q.reshape(-1))) == 3
    raises("MATLAB:randperm:inputKTooLarge", "randperm", 3.0, 5.0)


def test_rng_errors() -> None:
    raises("MATLAB:rng:badFirstOpt", "rng", -1.0, nargout=0)
    raises("MATLAB:rng:badFirstOpt", "rng", 1.5, nargout=0)
    raises("MATLAB:rng:badSettings", "rng", 1.0, text("nosuch"), nargout=0)


def test_randperm_matches_matlab_documentation_example() -> None:
    call("rng", text("default"), nargout=0)
    np.testing.assert_array_equal(call("randperm", 8.0), [[6, 3, 7, 8, 5, 1, 2, 4]])


# ------------------------------------------------------------------ gpurng
def test_gpurng_seeds_and_restores_the_device_stream(monkeypatch) -> None:
    from matfuse.runtime import gpu_rng

    monkeypatch.setattr(gpu_rng, "_counter", 0)
    call("gpurng", 5.0, nargout=0)
    assert gpu_rng.position() == (_philox.key_from_seed(5), 0)
    gpu_rng.take(10, "double")
    saved = call("gpurng", nargout=1)
    assert isinstance(saved, StructArray)
    position = gpu_rng.position()
    gpu_rng.take(100, "single")
    previous = call("gpurng", saved, nargout=1)       # returns the settings before
    assert gpu_rng.position() == position
    assert previous.data.reshape(-1)[0]["Seed"].reshape(-1)[0] == 5
    call("gpurng", text("default"), nargout=0)
    assert gpu_rng.position() == (_philox.key_from_seed(0), 0)
    call("gpurng", 3.0, text("Philox"), nargout=0)
    assert gpu_rng.position() == (_philox.key_from_seed(3), 0)


def test_gpurng_rejects_bad_input() -> None:
    raises("parallel:gpu:rng:badFirstOpt", "gpurng", -1.0)
    raises("parallel:gpu:rng:badFirstOpt", "gpurng", text("bogus"))
    raises("parallel:gpu:rng:badGeneratorType", "gpurng", 1.0, text("twister"))
