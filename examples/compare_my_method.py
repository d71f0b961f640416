#!/usr/bin/env python3
"""Compare your own stereo method (here: NumPy block matching) with lightbench's belief
propagation on a generated data set: one eval table for both, and the maps pushed to a running
viewer's panes (`lightbench --listen`) when --viewer is given.

    PYTHONPATH=build/python /usr/bin/python3 examples/compare_my_method.py [--dataset DIR]
        [--scenes N] [--size WxH] [--ndisp N] [--backend auto|cpu|cuda] [--viewer [HOST:]PORT]

Without --dataset it generates N synthetic scenes with truth (lightbench-cli generate-stereo,
Middlebury 2014 layout) in a temporary folder. Any folder `lightbench-cli batch` reads works
(Middlebury 2001-2021, KITTI): the metrics are its protocol's.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import lightbench as lb


def my_method(left, right, ndisp, radius=3):
    """Winner-takes-all sum of absolute differences over a (2r+1)^2 box: the baseline every
    stereo paper starts from, in plain NumPy (any HxW or HxWxC uint8 pair)."""
    L = left.astype(np.float32)
    R = right.astype(np.float32)
    if L.ndim == 3:
        L, R = L.mean(axis=2), R.mean(axis=2)
    h, w = L.shape
    k = 2 * radius + 1
    best = np.full((h, w), np.inf, np.float32)
    disp = np.zeros((h, w), np.float32)
    for d in range(ndisp):
        cost = np.full((h, w), 255.0, np.float32)
        cost[:, d:] = np.abs(L[:, d:] - R[:, : w - d])
        # box sum by an integral image
        c = np.pad(cost, ((radius + 1, radius), (radius + 1, radius)), mode="edge").cumsum(0).cumsum(1)
        box = c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]
        better = box < best
        best[better] = box[better]
        disp[better] = d
    return disp


def cli_path():
    here = os.path.dirname(os.path.abspath(__file__))
    for c in (os.environ.get("LB_CLI", ""), os.path.join(here, "..", "build", "app", "cli", "lightbench-cli")):
        if c and os.access(c, os.X_OK):
            return c
    sys.exit("compare_my_method: lightbench-cli not found (build it: scripts/build, or set LB_CLI)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", help="a stereo data set folder (default: generate one)")
    ap.add_argument("--scenes", type=int, default=3)
    ap.add_argument("--size", default="160x120")
    ap.add_argument("--ndisp", type=int, default=32)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--viewer", help="[HOST:]PORT of a viewer started with --listen")
    a = ap.parse_args()

    tmp = None
    root = a.dataset
    if root is None:
        tmp = tempfile.mkdtemp(prefix="lightbench-compare-")
        root = os.path.join(tmp, "scenes")
        subprocess.run([cli_path(), "generate-stereo", "--out", root, "--count", str(a.scenes), "--size", a.size,
                        "--ndisp", str(a.ndisp)], check=True, stdout=subprocess.DEVNULL)
    client = None
    if a.viewer:
        host, _, port = a.viewer.rpartition(":")
        client = lb.viewer.Client(host or "127.0.0.1", int(port))
    try:
        rows = []
        for scene in lb.open_dataset(root):
            if scene.truth is None:
                continue
            ins = scene.inputs
            bp = lb.run("stereo-bp", scene=scene, ndisp=a.ndisp, backend=a.backend, outputs="disparity")
            mine = my_method(ins["left"], ins["right"], a.ndisp)
            for method, disp, ms in (("lightbench bp", bp.outputs["disparity"], bp.compute_ms), ("my method", mine, None)):
                m = lb.evaluate(disp, scene)
                mask = "nonocc" if "nonocc" in m else next(iter(m))
                key = next(k for k in ("bad200", "bad100", "d1_all", "badpix_007") if k in m[mask])
                rows.append((scene.name, method, mask, key, m[mask][key], ms))
            if client:
                client.show(f"{scene.name}/bp", bp.outputs["disparity"], grab_focus=False)
                client.show(f"{scene.name}/mine", mine, grab_focus=True)
        print(f"{'scene':<14} {'method':<14} {'mask':<7} {'metric':<8} {'value':>8} {'ms':>9}")
        for name, method, mask, key, v, ms in rows:
            print(f"{name:<14} {method:<14} {mask:<7} {key:<8} {v:8.3f} {ms if ms is not None else float('nan'):9.3f}")
        for method in ("lightbench bp", "my method"):
            vals = [r[4] for r in rows if r[1] == method]
            print(f"{'mean':<14} {method:<14} {'':<7} {rows[0][3]:<8} {np.mean(vals):8.3f}")
    finally:
        if client:
            client.close()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
