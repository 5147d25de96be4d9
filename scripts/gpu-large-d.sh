#!/usr/bin/env bash
# On a machine with a GPU: the command on shapes whose pivot subtensors are over one warp's shared
# memory (the split angles, issue 12), float32, 10 sweeps forced, no verification: GPU time of the
# sweeps (the sum of report.json's per-sweep CUDA-event seconds) and the fraction of the
# device-to-device copy bandwidth COPY_GBS (GB/s, read + write; default: the H100's 2988 measured by
# gpu_bench on 2026-11-23) that one read and write of the tensor per pivot group would reach.
#   usage: [COPY_GBS=...] bash scripts/gpu-large-d.sh [OUTDIR] [DxN ...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-large-d-out}
shift || true
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(16x2 15x3 15x4)
mkdir -p "$out"
work=$(mktemp -d)
printf '%-8s %-10s %-8s %-12s %-10s %-10s %s\n' DxN MB groups gpu_ms_10 GB/s of_copy off_rel | tee "$out/large_d.txt"
for shape in "${shapes[@]}"; do
  d=${shape%x*}; n=${shape#*x}
  python3 -c "import numpy as np; np.save('$work/t.npy', np.random.default_rng(1).standard_normal(($n,) * $d, dtype=np.float32))"
  ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" --backend cuda --max-sweeps 10 --tol 1e-30 \
    --stall-tol 0 --no-verify -q
  python3 - "$work/o/report.json" "$d" "$n" "${COPY_GBS:-2988}" <<'PY' | tee -a "$out/large_d.txt"
import json, sys
r = json.load(open(sys.argv[1]))
d, n, copy = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
seconds = sum(h["seconds"] for h in r["history"][1:])
groups = n - 1 if n % 2 == 0 else n
moved = 10 * groups * 2 * n**d * 4
print(f"{d}x{n:<6} {n**d * 4 / 1e6:<10.1f} {groups:<8} {seconds * 1e3:<12.3f} {moved / seconds / 1e9:<10.0f} "
      f"{moved / seconds / 1e9 / copy:<10.2f} {r['history'][-1]['off_rel']:.2e}")
PY
  rm -rf "$work/o" "$work/t.npy"
done
