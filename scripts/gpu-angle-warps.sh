#!/usr/bin/env bash
# On a machine with a GPU (issue 15): the XOR subspace passes' angle kernel (subspace_angles) with
# fewer warps a block, TENSORDIAG_SUBSPACE_ANGLE_WARPS: first the XOR tests with the fewest
# (the GPU equals the CPU's XOR groups), then gpu_bench's XOR shapes and its symmetric table at each
# warp count. Builds nothing: expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-angle-warps.sh [OUTDIR] [WARPS ...]   (default: 32 16 8 4 2)
set -uo pipefail
default_out=/tmp/angle-warps
source "$(dirname "$0")/gpu-start.sh"
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(32 16 8 4 2)
TENSORDIAG_SUBSPACE_ANGLE_WARPS=2 timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu \
  -tc="*XOR*,*bit for bit (no pivot check)*,*symmetric takes the one-block engine*,*symmetric planted tensors*" 2>&1 |
  tail -4 | tee "$out/tests_2_warps.log" || status=1
for w in "${counts[@]}"; do
  echo "== TENSORDIAG_SUBSPACE_ANGLE_WARPS=$w" | tee -a "$out/bench.txt"
  TENSORDIAG_SUBSPACE_ANGLE_WARPS=$w timeout 120 ./build/bench/gpu_bench /tmp/general_$w.json --no-eta --repeats 3 \
    --only 3x64,3x128,3x256,4x16,4x64,6x16 2>&1 | tee -a "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ "
  TENSORDIAG_SUBSPACE_ANGLE_WARPS=$w timeout 120 ./build/bench/gpu_bench /tmp/symmetric_$w.json --symmetric --repeats 3 2>&1 |
    tee -a "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ "
done
exit $status
