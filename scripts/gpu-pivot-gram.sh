#!/usr/bin/env bash
# On a machine with a GPU: where the pivot check's Cholesky test pays (codegen Tuning::
# pivot_gram_size, TENSORDIAG_PIVOT_GRAM_SIZE) in one call -- the GPU suite (the cases that match
# TESTS, a doctest -tc filter; default all), then for each size limit in GRAMS (default
# "0 32 64 128") gpu_bench on the checked shapes and the command's mode
# checks that needed the exact norm (report.json's pivot_checks, planted float32 tensors of seed
# 2026, 10 sweeps forced). Expects build/ made by scripts/build.sh (possibly elsewhere).
#   usage: bash scripts/gpu-pivot-gram.sh [OUTDIR] [gpu_bench options, e.g. --repeats 3]
set -uo pipefail
default_out=gpu-pivot-gram-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests ${TESTS:+-tc="$TESTS"} > "$out/gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|gram size|test cases|assertions|Status" "$out/gpu_tests.log" | tail -16
work=$(mktemp -d)
for shape in 3x32 3x64 3x128 6x8 9x8; do
  ./build/tensordiag generate --order "${shape%x*}" --size "${shape#*x}" --seed 2026 --dtype float32 "$work/$shape.npy" >/dev/null || status=1
done
for gram in ${GRAMS:-0 32 64 128}; do
  echo "== TENSORDIAG_PIVOT_GRAM_SIZE=$gram"
  for shape in 3x32 3x64 3x128 6x8 9x8; do
    TENSORDIAG_PIVOT_GRAM_SIZE=$gram ./build/tensordiag diagonalize "$work/$shape.npy" --out "$work/o_${shape}_$gram" \
      --backend cuda --eta 0.00125 --max-sweeps 10 --tol 0 --stall-tol 0 -q >/dev/null 2>&1 || status=1
    echo "$shape: $(tr -d ' \n' < "$work/o_${shape}_$gram/report.json" | grep -o '"pivot_checks":{[^}]*}')"
  done
  TENSORDIAG_PIVOT_GRAM_SIZE=$gram ./build/bench/gpu_bench "$out/gpu_bench_gram_$gram.json" --only 3x16,3x32,3x64,3x128,6x8,9x8 "$@" \
    > "$out/gpu_bench_gram_$gram.txt" 2>&1 || status=1
  grep -E "^[0-9]+ +[0-9]+ +0\.00125" "$out/gpu_bench_gram_$gram.txt"
done 2>&1 | tee "$out/gram_table.txt"
exit $status
