#!/usr/bin/env bash
# On a machine with a GPU (issue 15, passes at >= 0.90 of the copy bandwidth): group_pass's
# prefetch (resident blocks taking the tile groups in turn, the next one loaded by cp.async while
# the block mixes the one before; TENSORDIAG_PASS_PREFETCH=1, the default where the device is
# known) against a block a tile group (=0), one build:
#   1. the group-pass GPU test (the prefetch paths against the CPU's pass);
#   2. the CLI's core and factors against build/head/tensordiag (ece6df1), byte for byte;
#   3. Nsight Compute on one D = 9, N = 8 launch, float32 and complex64, both settings;
#   4. gpu_bench's complex table (float32, float64, complex64, complex128) with both settings, and
#      its real table's group_pass alone (register bits x block size) at D = 9, N = 8 and D = 12, N = 4.
# Builds nothing: expects build/ made by scripts/build.sh and build/head/.
#   usage: bash scripts/gpu-prefetch.sh [OUTDIR] [SHAPES]   (SHAPES as gpu_bench --only)
set -uo pipefail
default_out=/tmp/prefetch
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=${1:-9x8,8x8,7x8,10x4,6x16}

echo "== 1. the group-pass GPU test"
timeout 120 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*group pass*" > "$out/group_pass_test.log" 2>&1 || status=1
tail -3 "$out/group_pass_test.log"

echo "== 2. outputs, ece6df1 against this build (cmp)"
timeout 150 bash scripts/gpu-compare-outputs.sh ./build/head/tensordiag ./build/tensordiag || status=1

echo "== 3. Nsight Compute, one group_pass launch"
for prefetch in 0 1; do
  TENSORDIAG_PASS_PREFETCH=$prefetch bash scripts/gpu-ncu-pass.sh "$out" "prefetch$prefetch" ./build/tensordiag
done

echo "== 4. gpu_bench"
for prefetch in 0 1; do
  echo "== TENSORDIAG_PASS_PREFETCH=$prefetch" | tee -a "$out/bench.txt"
  TENSORDIAG_PASS_PREFETCH=$prefetch TENSORDIAG_CACHE_DIR=$(mktemp -d) timeout 150 ./build/bench/gpu_bench \
    "$out/complex_prefetch$prefetch.json" --complex --only "$shapes" --repeats 3 2>&1 | tee -a "$out/bench.txt" |
    grep -E "^ *[0-9]+ +[0-9]+ "
done
for prefetch in 0 1; do
  echo "== group_pass alone, TENSORDIAG_PASS_PREFETCH=$prefetch" | tee -a "$out/bench.txt"
  TENSORDIAG_PASS_PREFETCH=$prefetch TENSORDIAG_CACHE_DIR=$(mktemp -d) timeout 100 ./build/bench/gpu_bench \
    "$out/sweep_prefetch$prefetch.json" --sweep --no-eta --only 9x8,12x4 --repeats 3 2>&1 | tee -a "$out/bench.txt" | tail -12
done
exit $status
