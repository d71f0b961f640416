"""The module is generated from the registry: every algorithm, its parameters and their ranges
are the CLI's; errors are lightbench.Error with the CLI's one-line message."""
import numpy as np
import pytest

import lightbench as lb
from conftest import write_pnm

ALGOS = ["plenoptic", "plenoptic-hex", "lightfield", "stereo-bp", "stereo-local", "mad"]


def test_algorithms_are_the_registry():
    ids = lb.algorithms()
    assert set(ALGOS) <= set(ids)
    for i in ids:
        assert f"\n{i}: " in lb.run.__doc__


@pytest.mark.parametrize("algo", ALGOS)
def test_describe_lists_every_parameter_with_range_default_doc(algo):
    d = lb.describe(algo)
    assert d["id"] == algo and d["params"] and d["outputs"] and d["variants"]
    for name, p in d["params"].items():
        assert p["min"] <= p["max"], name
        assert p["doc"], name
        assert p["kind"] in ("int", "float", "bool")
        assert p["default"] is None or p["min"] <= p["default"] <= p["max"], name
        assert f"    {name} [" in lb.run.__doc__
    assert d["inputs"]


def test_describe_unknown_algorithm_is_one_line():
    with pytest.raises(lb.Error) as e:
        lb.describe("nope")
    assert "\n" not in str(e.value) and "nope" in str(e.value)


def stereo_pair(rng, w=41, h=23):
    left = rng.integers(0, 256, (h, w), dtype=np.uint8)
    right = np.roll(left, -3, axis=1)
    return left, right


def test_out_of_range_parameter_has_the_clis_message(rng, cli, tmp_path):
    left, right = stereo_pair(rng)
    with pytest.raises(lb.Error) as e:
        lb.run("stereo-bp", left=left, right=right, ndisp=5000)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("ndisp: must be an integer in 2..41")
    # The CLI on the same pair as files: the same words after its flag.
    p = cli("stereo", "--left", write_pnm(tmp_path / "l.pgm", left), "--right", write_pnm(tmp_path / "r.pgm", right),
            "--ndisp", 5000, "--out", tmp_path / "d.pfm", check=False)
    assert p.returncode != 0
    assert msg.split(": ", 1)[1] in p.stderr


@pytest.mark.parametrize("kwargs, words", [
    ({"ndisp": 2.5}, "ndisp: must be an integer"),
    ({"ndisp": True}, "ndisp: must be an integer"),
    ({"nonsense": 1}, "unknown parameter or input 'nonsense'"),
    ({"ndisp": "many"}, "ndisp: must be an integer, got 'many'"),
    ({"variant": "nope"}, "variant: "),
    ({"backend": "gpu"}, "gpu"),
    ({"outputs": ["nope"]}, "outputs: stereo-bp has no output 'nope'"),
    ({"outputs": ["error"]}, "outputs: error needs ground truth"),
])
def test_bad_requests_are_one_line_errors(rng, kwargs, words):
    left, right = stereo_pair(rng)
    with pytest.raises(lb.Error) as e:
        lb.run("stereo-bp", left=left, right=right, **kwargs)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_bad_inputs_are_one_line_errors(rng, tmp_path):
    left, right = stereo_pair(rng)
    cases = [
        (dict(left=left, right=right[:, :-1]), "the images must have the same size"),
        (dict(left=left.astype(np.float32), right=right), "left: expected uint8 or uint16 pixels"),
        (dict(left=left[None, None], right=right), "left: expected an image array"),
        (dict(left=str(tmp_path / "missing.png"), right=right), "missing.png"),
        (dict(left=left), "give left= and right="),
        (dict(left=[1, 2, 3], right=right), "left:"),
    ]
    for kw, words in cases:
        with pytest.raises(lb.Error) as e:
            lb.run("stereo-bp", **kw)
        assert words in str(e.value), (kw.keys(), str(e.value))
        assert "\n" not in str(e.value)
    with pytest.raises(lb.Error, match="ref="):
        lb.run("mad", ref=left)
    with pytest.raises(lb.Error, match="views"):
        lb.run("lightfield", views=np.zeros((3, 3, 8, 8), np.uint8))
    with pytest.raises(lb.Error, match="pitch"):
        lb.run("plenoptic", raw=np.zeros((64, 64, 3), np.uint8))


def test_value_names_are_accepted(rng):
    views = rng.integers(0, 256, (5, 5, 21, 23, 3), dtype=np.uint8)
    r = lb.run("lightfield", views=views, refine_mode="filter", outputs=["refined"], backend="cpu")
    assert r.params["refine_mode"] == "filter"
    with pytest.raises(lb.Error, match="refine_mode: must be"):
        lb.run("lightfield", views=views, refine_mode="best")
