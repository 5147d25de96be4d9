#!/usr/bin/env bash
# Symmetric tensors in full storage on the CPU, through packed storage (engine cpu_packed, from
# order 5; 6 before 2026-11-27) against the engine of a base build (build/base/tensordiag, copied from an
# earlier build): `tensordiag diagonalize --structure symmetric --backend cpu`, 10 sweeps forced,
# float64, planted symmetric tensors with noise 1e-2; the sweeps' seconds a sweep (report.json;
# median of REPEATS), the whole command's wall time and peak resident memory (/usr/bin/time).
#   usage: bash scripts/cpu-packed-route.sh [REPEATS] [DxN ...]   (default 3; 6x8 7x6 9x5 6x16 8x8)
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
shift || true
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(6x8 7x6 9x5 6x16 8x8)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| D x N | MB | build | engine | sweeps | ms a sweep (median of $repeats) | wall s | peak MB | reconstruction error |"
echo "|---|---|---|---|---|---|---|---|---|"
for shape in "${shapes[@]}"; do
  order=${shape%x*}
  size=${shape#*x}
  ./build/tensordiag generate --order "$order" --size "$size" --seed 3 --structure symmetric --noise 0.01 "$work/t.npy" > /dev/null
  mb=$(python3 -c "import os; print(round(os.path.getsize('$work/t.npy') / 1e6, 1))")
  for build in base new; do
    bin=./build/tensordiag
    [ $build = base ] && bin=./build/base/tensordiag
    rows=()
    for ((r = 0; r < repeats; ++r)); do
      /usr/bin/time -f "%e %M" -o "$work/time.txt" "$bin" diagonalize "$work/t.npy" --structure symmetric --backend cpu \
        --max-sweeps 10 --tol 0 --stall-tol 0 --out "$work/out" -q
      rows+=("$(python3 - "$work/out/report.json" "$work/time.txt" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall, kb = open(sys.argv[2]).read().split()
print(r["engine"], r["sweeps"], 1e3 * r["timings"]["sweeps_seconds"] / r["sweeps"], wall, int(kb) / 1024 * 1.048576,
      r["reconstruction_error"])
PY
)")
    done
    printf '%s\n' "${rows[@]}" | sort -k3 -g | sed -n "$(((repeats + 1) / 2))p" |
      awk -v s="$order x $size" -v mb="$mb" -v b="$build" '{printf "| %s | %s | %s | %s | %s | %.3f | %s | %.0f | %.1e |\n", s, mb, b, $1, $2, $3, $4, $5, $6}'
  done
done
