#!/usr/bin/env bash
# On a machine with a GPU (issues 15 and 11): group_pass with each exchanged mode's coefficient
# chosen once a thread (c x + t y, t = conj(s) at p, -s at q) against a base build that formed both
# sides' products an entry and selected one (build/head/{tensordiag,gpu_bench}, copied from the
# earlier build):
#   1. the CLI's core and factors of both builds compared byte for byte (cmp) on real and complex,
#      even and odd N;
#   2. Nsight Compute on one group_pass launch of D = 9, N = 8, float32 and complex64, both builds
#      (instructions executed, issue activity, DRAM throughput, duration), where ncu is installed;
#   3. gpu_bench's complex table (float32, float64, complex64, complex128, round robin) with both
#      builds, and complex64 at D = 9, N = 8 under other register bounds.
# Builds nothing: expects build/ made by scripts/build.sh and build/head/.
#   usage: bash scripts/gpu-mix-once.sh [OUTDIR] [SHAPES]   (SHAPES as gpu_bench --only)
set -uo pipefail
default_out=/tmp/mix-once
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=${1:-9x8,8x8,7x8,10x4,6x16}

echo "== 1. outputs, base against new (cmp)"
bash scripts/gpu-compare-outputs.sh ./build/head/tensordiag ./build/tensordiag || status=1

echo "== 2. Nsight Compute, one group_pass launch"
bash scripts/gpu-ncu-pass.sh "$out" head ./build/head/tensordiag
bash scripts/gpu-ncu-pass.sh "$out" new ./build/tensordiag

echo "== 3. gpu_bench --complex, base and new"
bash scripts/gpu-complex-table.sh "$out" head ./build/head/gpu_bench "$shapes" 150
bash scripts/gpu-complex-table.sh "$out" new ./build/bench/gpu_bench "$shapes" 150
for bound in 0 80; do
  echo "== new, TENSORDIAG_PASS_MAX_REGISTERS=$bound (complex64's bound; others too)" | tee -a "$out/bench.txt"
  TENSORDIAG_PASS_MAX_REGISTERS=$bound TENSORDIAG_CACHE_DIR=$(mktemp -d) timeout 60 ./build/bench/gpu_bench \
    "$out/complex_bound_$bound.json" --complex --only 9x8 --repeats 3 2>&1 | tee -a "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ "
done
exit $status
