#!/usr/bin/env bash
# On a machine with a GPU: chunk_pass at N = 3 in the dtypes other than float32 (float64 from
# D = 15, complex128 from D = 14, complex64 from D = 15 take the chunked pass), build/base/tensordiag
# (an earlier build) against build/tensordiag, alternated ROUNDS times after one run each that
# compiles: `diagonalize --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify` of a
# `generate --seed 1` tensor, report.json's sweeps_seconds.
# Builds nothing: expects build/ made by scripts/build.sh and build/base/tensordiag.
#   usage: [ROUNDS=2] bash scripts/gpu-chunk-dtypes.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/chunk-dtypes
source "$(dirname "$0")/gpu-start.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(15x3:float64 16x3:float64 14x3:complex128 15x3:complex128 15x3:complex64)
work=$(mktemp -d)
sweeps() {  # program tensor
  rm -rf "$work/o"
  "$1" diagonalize "$2" --out "$work/o" --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify -q > /dev/null 2>&1 || return 1
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['timings']['sweeps_seconds'])" "$work/o/report.json"
}
printf '%-18s %-8s %s\n' case build sweeps_s | tee "$out/table.txt"
for c in "${cases[@]}"; do
  shape=${c%%:*} dtype=${c#*:} order=${shape%x*} size=${shape#*x}
  ./build/tensordiag generate --order "$order" --size "$size" --dtype "$dtype" --seed 1 "$work/t.npy" > /dev/null || { status=1; continue; }
  for program in build/base/tensordiag build/tensordiag; do sweeps "./$program" "$work/t.npy" > /dev/null || status=1; done
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for program in build/base/tensordiag build/tensordiag; do
      printf '%-18s %-8s %s\n' "$c" "${program%/tensordiag}" "$(sweeps "./$program" "$work/t.npy" || echo failed)" | tee -a "$out/table.txt"
    done
  done
done
rm -rf "$work"
exit $status
