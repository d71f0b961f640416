"""Fixtures of the Python suite (tests/python; CTest `python`): the built package on the path
(PYTHONPATH=build/python), the CLI to compare with (LB_CLI) and the shared data (LB_SHARED_DATA_DIR)."""
import json
import os
import subprocess

import numpy as np
import pytest

import lightbench


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("LB_CLI", "")
    if not os.path.exists(path):
        pytest.fail(f"LB_CLI '{path}' is not the built lightbench-cli (run the suite through ctest)")

    def run(*args, check=True):
        p = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"lightbench-cli {' '.join(map(str, args))}: {p.stderr}")
        return p
    return run


@pytest.fixture(scope="session")
def data_dir():
    d = os.environ.get("LB_SHARED_DATA_DIR", os.path.join(os.path.dirname(__file__), "../../../shared/data"))
    if not os.path.isdir(d):
        pytest.skip(f"the shared data is not at {d}")
    return d


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def read_json(path):
    with open(path) as f:
        return json.load(f)


def write_pnm(path, a):
    """An 8-bit array as a binary PGM (HxW) or PPM (HxWx3): files the CLI reads, without PIL."""
    a = np.ascontiguousarray(a, dtype=np.uint8)
    magic = b"P5" if a.ndim == 2 else b"P6"
    with open(path, "wb") as f:
        f.write(magic + f"\n{a.shape[1]} {a.shape[0]}\n255\n".encode() + a.tobytes())
    return str(path)


def read_pfm(path):
    with open(path, "rb") as f:
        kind = f.readline().strip()
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        a = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    c = 3 if kind == b"PF" else 1
    return np.flipud(a.reshape(h, w, c) if c == 3 else a.reshape(h, w)).astype(np.float32)


def write_png16(path, a):
    """A 16-bit gray PNG (HxW uint16), written with zlib alone."""
    import struct
    import zlib
    a = np.ascontiguousarray(a, dtype=">u2")
    h, w = a.shape
    raw = b"".join(b"\0" + a[y].tobytes() for y in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
    return str(path)
