#!/usr/bin/env bash
# On a machine with a GPU: structure symmetric at order 2 (the Jacobi eigenvalue method) on the
# general GPU engine, in one call: the symmetric GPU tests, then symmetric matrices of the spin
# chains' sector sizes on --backend cuda and --backend cpu (GPU time of the sweeps, the command's
# wall time) beside NumPy's eigh (LAPACK) on the same matrix. The CPU engine runs only up to
# CPU_MAX_N (default 300: its larger sizes cost minutes; README's figures give them). Expects build/ made by
# scripts/build.sh (possibly elsewhere: /work/main is linked to this checkout for the tests' paths).
#   usage: bash scripts/gpu-symmetric-matrix.sh [OUTDIR] [SIZES...]
set -uo pipefail
default_out=gpu-symmetric-matrix-out
source "$(dirname "$0")/gpu-start.sh"
sizes=${*:-252 924 1716 3432}
./build/tests/tensordiag_gpu_tests -tc="symmetric*" 2>&1 | tee "$out/symmetric_gpu_tests.log" || status=1

work=$(mktemp -d)
printf '%-6s %-8s %-12s %-12s %-12s %-12s %-10s\n' N backend sweeps_s wall_s off_rel eigh_s max_rel_err | tee "$out/table.txt"
for n in $sizes; do
  ./build/tensordiag generate --order 2 --size "$n" --seed "$n" --structure symmetric --dtype float64 "$work/a$n.npy" >/dev/null || status=1
  backends=cuda
  [ "$n" -le "${CPU_MAX_N:-300}" ] && backends="cuda cpu"
  for backend in $backends; do
    start=$(date +%s.%N)
    ./build/tensordiag diagonalize "$work/a$n.npy" --out "$work/r$n$backend" --structure symmetric --backend "$backend" >/dev/null || status=1
    end=$(date +%s.%N)
    python3 - "$work/a$n.npy" "$work/r$n$backend" "$n" "$backend" "$start" "$end" <<'PY' | tee -a "$out/table.txt"
import json, sys, time
import numpy as np
a = np.load(sys.argv[1]); r = sys.argv[2]
report = json.load(open(r + "/report.json"))
core = np.load(r + "/core.npy")
t = time.perf_counter(); w = np.linalg.eigh(a)[0]; eigh = time.perf_counter() - t
found = np.sort(np.diag(core))
err = np.max(np.abs(found - w)) / np.max(np.abs(w))
sweeps = sum(h.get("seconds", 0.0) for h in report["history"])
print(f"{sys.argv[3]:<6} {sys.argv[4]:<8} {sweeps:<12.4f} {float(sys.argv[6]) - float(sys.argv[5]):<12.3f} "
      f"{report['history'][-1]['off_rel']:<12.2e} {eigh:<12.4f} {err:<10.2e}")
PY
  done
done
exit $status
