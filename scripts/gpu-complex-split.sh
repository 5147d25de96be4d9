#!/usr/bin/env bash
# On a machine with a GPU: complex tensors whose pivot subtensors are over a warp's shared memory
# (complex64 from D = 13, complex128 from D = 12), which take the split angles. Runs their GPU
# tests, then for each DxN:dtype case a `generate --seed 1 --noise 1e-3` tensor through
# `diagonalize --max-sweeps S --tol 0 --stall-tol 0 --no-verify` on `--backend cuda` (10 sweeps,
# after one run that compiles) and `--backend cpu` (3 sweeps, every core), and prints each one's
# milliseconds a sweep (report.json's sweeps_seconds over its sweeps) and the kernels the GPU took.
# Builds nothing: expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-complex-split.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/complex-split
source "$(dirname "$0")/gpu-start.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(13x2:complex64 20x2:complex64 24x2:complex64 12x2:complex128 20x2:complex128
                                 24x2:complex128 13x3:complex64 14x3:complex128 15x3:complex64)
./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*split*" 2>&1 | tee "$out/split_tests.log" | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
work=$(mktemp -d)
per_sweep() {  # backend sweeps tensor: ms a sweep, and the kernels
  rm -rf "$work/o"
  ./build/tensordiag diagonalize "$3" --out "$work/o" --backend "$1" --max-sweeps "$2" --tol 0 --stall-tol 0 \
    --no-verify -q > /dev/null 2>&1 || return 1
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))
print('%.3f' % (1e3 * r['timings']['sweeps_seconds'] / r['sweeps']), ','.join(r['kernels']) or '-')" "$work/o/report.json"
}
printf '%-18s %12s %12s  %s\n' case gpu_ms_sweep cpu_ms_sweep gpu_kernels | tee "$out/table.txt"
for c in "${cases[@]}"; do
  shape=${c%%:*} dtype=${c#*:} order=${shape%x*} size=${shape#*x}
  ./build/tensordiag generate --order "$order" --size "$size" --dtype "$dtype" --seed 1 --noise 1e-3 "$work/t.npy" \
    > /dev/null || { status=1; continue; }
  per_sweep cuda 1 "$work/t.npy" > /dev/null || status=1
  read -r gpu kernels < <(per_sweep cuda 10 "$work/t.npy" || echo failed -)
  read -r cpu _ < <(per_sweep cpu 3 "$work/t.npy" || echo failed -)
  printf '%-18s %12s %12s  %s\n' "$c" "$gpu" "$cpu" "$kernels" | tee -a "$out/table.txt"
done
rm -rf "$work"
exit $status
