"""examples/compare_my_method.py runs end to end: a generated data set, both methods, the table."""
import os
import subprocess
import sys


def test_compare_my_method_runs(cli):
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "..", "..", "examples", "compare_my_method.py")
    p = subprocess.run([sys.executable, script, "--scenes", "2", "--size", "96x72", "--ndisp", "16", "--backend", "cpu"],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ))
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert sum(1 for l in lines if l.startswith("scene_")) == 4
    means = {l.split()[1] + " " + l.split()[2]: float(l.split()[-1]) for l in lines if l.startswith("mean")}
    assert set(means) == {"lightbench bp", "my method"}
    # BP beats the box-SAD baseline on the generated planes.
    assert means["lightbench bp"] < means["my method"]
