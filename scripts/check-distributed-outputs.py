#!/usr/bin/env python3
"""Checks a distributed run's outputs against its input (float64): every factor orthogonal to
1e-13, the reconstruction C x_1 M_1 .. x_D M_D within 1e-12 of the input, and off reduced. Prints
one line naming the engine, the ranks, the transport and the layout.
   usage: check-distributed-outputs.py IN.npy OUTDIR LABEL"""
import json
import sys

import numpy as np

tensor, out, label = sys.argv[1:]
t = np.load(tensor)
x = np.load(f"{out}/core.npy")
r = json.load(open(f"{out}/report.json"))
for n in range(t.ndim):
    m = np.load(f"{out}/factor_{n + 1}.npy")
    assert np.linalg.norm(m.T @ m - np.eye(m.shape[0])) < 1e-13, "factor not orthogonal"
    x = np.moveaxis(np.tensordot(m, x, axes=(1, n)), 0, n)
err = np.linalg.norm(x - t) / np.linalg.norm(t)
d = r["distributed"]
print(f"{label}: engine {r['engine']}, ranks {d['ranks']}, transport {d['transport']}, layout '{d['layout']}', "
      f"reconstruction error {err:.3e}, off_rel {r['history'][-1]['off_rel']:.3e} after {len(r['history']) - 1} sweeps")
assert err < 1e-12, "reconstruction error too large"
assert r["history"][-1]["off_rel"] < 0.9, "the sweeps did not reduce off"
