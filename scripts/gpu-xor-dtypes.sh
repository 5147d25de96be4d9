#!/usr/bin/env bash
# On a machine with a GPU: the XOR subspace passes (cells of 4, TENSORDIAG_SUBSPACE_BITS=2) against
# the round robin above order 3, for the dtypes and structures whose `auto` rule was not measured
# (float64, complex64, complex128, structure symmetric in float32): `tensordiag diagonalize
# --backend cuda`, 10 sweeps forced, GPU time = the sum of report.json's per-sweep seconds (CUDA
# events), the median of 3 runs after a warm-up. Prints one line a case:
#   dtype structure DxN round_robin_ms xor_ms xor/rr
# Expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-xor-dtypes.sh [OUTDIR]
set -uo pipefail
default_out=gpu-xor-dtypes-out
source "$(dirname "$0")/gpu-start.sh"
work=$(mktemp -d)
gpu_ms() {  # median over 3 runs of the sweeps' GPU milliseconds; $1 input, rest: options
  local input=$1; shift
  ./build/tensordiag diagonalize "$input" --out "$work/o" --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0 \
    --no-verify -q "$@" >/dev/null 2>&1 || { echo nan; return; }
  for r in 1 2 3; do
    ./build/tensordiag diagonalize "$input" --out "$work/o" --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0 \
      --no-verify -q "$@" >/dev/null 2>&1 || { echo nan; return; }
    python3 -c "import json; r = json.load(open('$work/o/report.json')); print(1e3 * sum(h['seconds'] for h in r['history'][1:]), r['schedule'], r['engine'])"
  done | sort -n | sed -n 2p
}
case_line() {  # dtype structure order size
  local dtype=$1 structure=$2 order=$3 size=$4
  local input="$work/t.npy"
  ./build/tensordiag generate --order "$order" --size "$size" --seed 2026 --dtype "$dtype" --structure "$structure" \
    --noise 0.01 "$input" >/dev/null || return
  local rr xor
  rr=$(gpu_ms "$input" --structure "$structure" --schedule round-robin)
  xor=$(TENSORDIAG_SUBSPACE_BITS=2 gpu_ms "$input" --structure "$structure" --schedule xor)
  python3 -c "
rr, xor = '$rr'.split(), '$xor'.split()
ratio = float(xor[0]) / float(rr[0]) if rr and xor and rr[0] != 'nan' and xor[0] != 'nan' else float('nan')
print('%-10s %-9s %dx%-4d rr %-9s xor %-9s xor/rr %.2f  (%s)' % ('$dtype', '$structure', $order, $size, rr[0] if rr else '-', xor[0] if xor else '-', ratio, ' '.join(rr[1:] + xor[1:])))" \
    | tee -a "$out/xor_dtypes.txt"
}
: > "$out/xor_dtypes.txt"
for dtype in float64 complex64 complex128; do
  for shape in "4 8" "5 8" "4 16" "4 32" "4 64" "5 16" "5 32" "6 16"; do
    set -- $shape
    case_line "$dtype" general "$1" "$2"
  done
done
for shape in "4 16" "4 32" "4 64" "5 16" "5 32" "6 16"; do
  set -- $shape
  case_line float32 symmetric "$1" "$2"
done
exit $status
