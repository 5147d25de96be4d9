#!/usr/bin/env bash
# On a machine with a GPU: the register form of the shared-memory group step (small_tensor and
# subspace_angles) and subspace_apply's innermost mode in one call -- the GPU tests that run them
# (the whole GPU suite too with FULL_SUITE=1), then gpu_bench's one-block table and the
# XOR/round-robin schedules table with this build and, where build/bench/gpu_bench_before exists
# (the same bench built on the kernels before the change), with that one, table by table on the
# same warm machine. Expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-one-block.sh [OUTDIR] [gpu_bench options, e.g. --repeats 5]
set -uo pipefail
default_out=gpu-one-block-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests -tc="*one-block*,*batch*,*XOR*,*bit for bit*" > "$out/focused_gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|test cases|assertions|Status" "$out/focused_gpu_tests.log" | head -20
if [ "${FULL_SUITE:-0}" = 1 ]; then
  ./build/tests/tensordiag_gpu_tests > "$out/gpu_tests.log" 2>&1 || status=1
  grep -E "ERROR|test cases|assertions|Status" "$out/gpu_tests.log" | head -20
fi
shapes=3x8,3x16,3x32,3x64,3x128,3x256,4x8,5x8,6x8,7x8,6x16
for build in gpu_bench gpu_bench_before; do
  [ -x "./build/bench/$build" ] || continue
  echo "== $build --one-block"
  ./build/bench/$build "$out/${build}_one_block.json" --one-block "$@" 2>&1 | tee "$out/${build}_one_block.txt" || status=1
done
for build in gpu_bench gpu_bench_before; do
  [ -x "./build/bench/$build" ] || continue
  echo "== $build --schedules"
  ./build/bench/$build "$out/${build}_schedules.json" --schedules --no-eta --only "$shapes" "$@" 2>&1 | tee "$out/${build}_schedules.txt" || status=1
done
exit $status
