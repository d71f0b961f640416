"""lightbench: the algorithms of lightbench's engine from Python.

Everything here comes from the engine's registry, as the CLI's commands do:

    import lightbench as lb
    lb.algorithms()                       # ['plenoptic', 'plenoptic-hex', 'lightfield', 'stereo-bp', ...]
    lb.describe("stereo-bp")["params"]    # name -> min, max, default, doc, ...
    r = lb.run("stereo-bp", left=L, right=R, ndisp=64)
    r.outputs["disparity"]                # float32 HxW
    r.scores, r.timings, r.variant, r.backend

Errors raise lightbench.Error with the CLI's one-line message. ../shared/specs/python-api.md.
"""
from . import _lightbench as _ext
from ._lightbench import Error, Scene, algorithms, correlate, describe, evaluate, open_dataset, read_image

__all__ = ["Error", "Result", "Scene", "algorithms", "correlate", "describe", "evaluate", "open_dataset",
           "read_image", "run", "viewer"]


class Result:
    """What a run gives: the outputs (name -> NumPy array: float32 maps, uint8 RGBA images), and,
    with the keys of the CLI's JSON report, its scores, timings, params, variant, backend and device.
    compute_ms / ms_total: the first output's compute time (timing rows) and wall time."""

    __slots__ = ("algorithm", "outputs", "scores", "timings", "params", "variant", "backend",
                 "backend_reason", "device", "compute_ms", "ms_total", "metrics", "protocol")

    def __init__(self, d):
        for k in self.__slots__:
            setattr(self, k, d.get(k))

    def __repr__(self):
        shapes = ", ".join(f"{k}: {tuple(v.shape)}" for k, v in self.outputs.items())
        return (f"<lightbench.Result {self.algorithm} on {self.backend} ({self.variant}), "
                f"{self.compute_ms:.3f} ms; {shapes}>")


def run(id, *, backend="auto", variant="auto", device=0, outputs=None, **inputs_and_params):
    return Result(_ext._run(id, backend=backend, variant=variant, device=device, outputs=outputs,
                            **inputs_and_params))


run.__doc__ = _ext._run_doc()

from . import viewer  # noqa: E402  (the remote-pane client)
