"""read_image, open_dataset, evaluate and correlate: the numbers the CLI's eval gives."""
import os

import numpy as np
import pytest

import lightbench as lb
from conftest import read_json, write_png16, write_pnm


def test_read_image_keeps_full_depth(tmp_path, data_dir):
    a = lb.read_image(os.path.join(data_dir, "stereo", "tsukuba", "imL.png"))
    assert a.dtype == np.uint8 and a.ndim in (2, 3)
    # A 16-bit PNG: its values as they are (the CLI's inputs take them to 8 bits, v/257).
    v = (np.arange(40 * 36, dtype=np.uint16) * 45).reshape(36, 40)
    b = lb.read_image(write_png16(tmp_path / "d16.png", v))
    assert b.dtype == np.uint16 and np.array_equal(b, v)
    # As an input it is what the CLI makes of the file: round(v / 257).
    r = lb.run("mad", ref=b, dist=b, backend="cpu", outputs="hi")
    r2 = lb.run("mad", ref=((v.astype(np.uint32) + 128) // 257).astype(np.uint8), dist=b, backend="cpu", outputs="hi")
    assert np.array_equal(r.outputs["hi"], r2.outputs["hi"])
    with pytest.raises(lb.Error, match="nothing.png"):
        lb.read_image(str(tmp_path / "nothing.png"))


def test_open_dataset_and_evaluate_equal_the_clis_eval(cli, data_dir, tmp_path):
    scenes = lb.open_dataset(os.path.join(data_dir, "stereo"))
    names = [s.name for s in scenes]
    assert "tsukuba" in names and "venus" in names
    s = scenes[names.index("tsukuba")]
    assert s.kind == "stereo pair" or "stereo" in s.kind
    assert set(s.inputs) == {"left", "right"} and s.truth is not None and s.protocol
    r = lb.run("stereo-bp", scene=s, ndisp=16, iterations=3, backend="cpu", outputs="disparity")
    m = lb.evaluate(r.outputs["disparity"], s)
    assert r.metrics == m
    # eval on the same map written as a .pfm: the same numbers.
    out = tmp_path / "d.pfm"
    cli("stereo", "--scene", os.path.join(data_dir, "stereo", "tsukuba"), "--ndisp", 16, "--iterations", 3,
        "--backend", "cpu", "--out", out, "--json", tmp_path / "run.json")
    cli("eval", "--dataset", os.path.join(data_dir, "stereo", "tsukuba"), "--disp", out, "--json", tmp_path / "eval.json")
    j = read_json(tmp_path / "eval.json")
    assert read_json(tmp_path / "run.json")["metrics"] == m
    assert [s["metrics"] for s in j["scenes"] if s["scene"] == "tsukuba"] == [m]


def test_correlate():
    mos = [1.0, 2.0, 3.5, 4.0, 5.0, 6.5]
    c = lb.correlate([x * 2 + 1 for x in mos], mos)
    assert c["srocc"] == pytest.approx(1.0) and c["krocc"] == pytest.approx(1.0)
    assert set(c) >= {"srocc", "krocc", "plcc", "logistic"}
    with pytest.raises(lb.Error):
        lb.correlate([1.0, 2.0], [1.0])
