#!/usr/bin/env bash
# On a machine with a GPU: the command end to end (file in, results on disk) for tensors of D = 3,
# N = 400 and 800 (float32, 10 sweeps), and the share of the wall time that the verification takes
# (report.json's timings). Expects build/ made by scripts/build.sh. The tensors are Gaussian (NumPy).
# BEFORE=path/to/an/older/tensordiag also times that binary at N = 400 (it verifies on the host).
#   usage: [BEFORE=...] bash scripts/gpu-end-to-end.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-end-to-end-out}
mkdir -p "$out"
work=$(mktemp -d)
printf '%-6s %-8s %-10s %-10s %-10s %-10s %-14s %s\n' N verify wall_s sweeps_s verify_s compile_s verify/sweeps reconstruction_error \
  | tee "$out/end_to_end.txt"
for n in 400 800; do
  python3 -c "import numpy as np; np.save('$work/t$n.npy', np.random.default_rng(1).standard_normal(($n,) * 3, dtype=np.float32))"
  runs="yes no"
  [ -n "${BEFORE:-}" ] && [ "$n" = 400 ] && runs="before yes no"
  for verify in $runs; do
    flag=(); [ "$verify" = no ] && flag=(--no-verify)
    binary=./build/tensordiag; [ "$verify" = before ] && binary=$BEFORE
    start=$(date +%s.%N)
    "$binary" diagonalize "$work/t$n.npy" --out "$work/o$n$verify" --backend cuda --max-sweeps 10 \
      --tol 1e-30 --stall-tol 0 -q "${flag[@]}"
    end=$(date +%s.%N)
    python3 - "$work/o$n$verify/report.json" "$n" "$verify" "$start" "$end" <<'PY' | tee -a "$out/end_to_end.txt"
import json, sys
r = json.load(open(sys.argv[1])); t = r["timings"]
v = t.get("verification_seconds", 0.0)
print(f"{sys.argv[2]:<6} {sys.argv[3]:<8} {float(sys.argv[5]) - float(sys.argv[4]):<10.3f} {t['sweeps_seconds']:<10.4f} "
      f"{v:<10.4f} {t['compile_seconds']:<10.3f} {v / t['sweeps_seconds']:<14.3f} {r.get('reconstruction_error', 'skipped')}")
PY
    cp "$work/o$n$verify/report.json" "$out/report_n${n}_$verify.json"
  done
done
