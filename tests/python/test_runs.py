"""Every algorithm runs from Python on the CPU, and a run equals the CLI's bit for bit (the same
files through the CLI and through lightbench.run, or their pixels as arrays)."""
import os

import numpy as np
import pytest

import lightbench as lb
from conftest import read_json, read_pfm, write_pnm


def test_every_algorithm_runs_on_the_cpu(rng):
    left = rng.integers(0, 256, (29, 47, 3), dtype=np.uint8)
    right = np.roll(left, -2, axis=1)
    runs = {
        "plenoptic": dict(preset="tiny"),
        "plenoptic-hex": dict(preset="hex-small", outputs=["view"]),
        "lightfield": dict(views=rng.integers(0, 256, (5, 5, 19, 23, 3), dtype=np.uint8), labels=16),
        "stereo-bp": dict(left=left, right=right, ndisp=8),
        "stereo-local": dict(left=left, right=right, ndisp=8, radius=3),
        "mad": dict(ref=rng.integers(0, 256, (40, 52), dtype=np.uint8),
                    dist=rng.integers(0, 256, (40, 52), dtype=np.uint8)),
    }
    assert set(runs) <= set(lb.algorithms())
    for algo, kw in runs.items():
        r = lb.run(algo, backend="cpu", **kw)
        assert r.backend == "cpu" and r.variant.startswith("reference"), (algo, r.variant)
        assert r.outputs, algo
        d = lb.describe(algo)
        for name, a in r.outputs.items():
            fmt = d["outputs"][name]["format"]
            assert a.dtype == (np.float32 if fmt == "float32" else np.uint8), (algo, name)
            assert a.ndim == (2 if fmt == "float32" else 3) and a.size > 0
            if fmt == "float32":
                assert np.isfinite(a).any(), (algo, name)
        assert r.timings and r.compute_ms >= 0 and r.ms_total > 0
        assert set(r.params) >= set(d["params"]) - {"variant"}


def test_stereo_equals_the_cli_bit_for_bit(cli, data_dir, tmp_path):
    scene = os.path.join(data_dir, "stereo", "tsukuba")
    L, R = os.path.join(scene, "imL.png"), os.path.join(scene, "imR.png")
    for method, algo, extra in [("bp", "stereo-bp", ["--iterations", 3]), ("local", "stereo-local", ["--radius", 4])]:
        out = tmp_path / f"{method}.pfm"
        rep = tmp_path / f"{method}.json"
        cli("stereo", "--method", method, "--left", L, "--right", R, "--ndisp", 16, *extra, "--backend", "cpu",
            "--out", out, "--json", rep)
        kw = {extra[0][2:]: extra[1]}
        by_path = lb.run(algo, left=L, right=R, ndisp=16, backend="cpu", outputs="disparity", **kw)
        by_array = lb.run(algo, left=lb.read_image(L), right=lb.read_image(R), ndisp=16, backend="cpu",
                          outputs="disparity", **kw)
        want = read_pfm(out)
        assert np.array_equal(by_path.outputs["disparity"], want), method
        assert np.array_equal(by_array.outputs["disparity"], want), method
        j = read_json(rep)
        for k, v in by_path.params.items():
            if k in j["parameters"] and k != "variant":
                assert j["parameters"][k] == v, (method, k)
        assert j["variant"] == by_path.variant


def test_mad_equals_the_cli_bit_for_bit(cli, data_dir, tmp_path):
    ref, dist = (os.path.join(data_dir, "iqa", f) for f in ("I03_ref.bmp", "I03_dist.bmp"))
    rep = tmp_path / "mad.json"
    cli("mad", "--ref", ref, "--dist", dist, "--backend", "cpu", "--maps", tmp_path / "maps", "--json", rep)
    r = lb.run("mad", ref=ref, dist=dist, backend="cpu")
    for m in ("hi", "lo"):
        assert np.array_equal(r.outputs[m], read_pfm(tmp_path / "maps" / f"{m}.pfm")), m
    assert r.scores["mad"] == read_json(rep)["scores"]["mad"]


def test_plenoptic_preset_equals_the_cli(cli, tmp_path):
    rep = tmp_path / "depth.json"
    cli("depth", "--preset", "tiny", "--backend", "cpu", "--out", tmp_path / "d.pfm", "--json", rep)
    r = lb.run("plenoptic", preset="tiny", backend="cpu", outputs=["depth"])
    assert np.array_equal(r.outputs["depth"], read_pfm(tmp_path / "d.pfm"))
    j = read_json(rep)
    for k, v in r.scores.items():
        if isinstance(v, (int, float)) and k in j["scores"]:
            assert j["scores"][k] == v, k


def test_gil_is_released_during_a_run(rng):
    import threading
    import time
    left = rng.integers(0, 256, (200, 300), dtype=np.uint8)
    right = np.roll(left, -4, axis=1)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.002)
    t = threading.Thread(target=tick)
    t.start()
    t0 = time.perf_counter()
    lb.run("stereo-bp", left=left, right=right, ndisp=48, backend="cpu", outputs="disparity")
    t1 = time.perf_counter()
    done.set()
    t.join()
    during = [x for x in ticks if t0 < x < t1]
    # The ticking thread kept running while the run computed (a held GIL would stop it).
    assert t1 - t0 > 0.05
    assert len(during) >= 5
