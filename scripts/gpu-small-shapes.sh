#!/usr/bin/env bash
# On a machine with a GPU (issue 15): the two defaults read on an H200 on 2026-11-28, measured again
# in one call (for the H100 the README's other tables come from): group_pass's block size at small
# and mid-size shapes (gpu_bench --pass-blocks: the round robin at each TENSORDIAG_PASS_BLOCK_SIZE,
# every dtype; the plan's column 0 takes 128 threads there), and auto's schedule at orders 4 to 6
# (gpu_bench --schedule-dtypes: the round robin against the XOR passes, every dtype; --schedules:
# float32 at every cell size; --schedule-dtypes --symmetric: the same for structure symmetric, float32
# and float64, orders 3 to 7), the round robin's overlapping launches at the paper's N = 8 shapes
# and in the symmetric table (bench/results/overlapping_launches_h200_2026-11-28.md). Then the GPU
# cases those defaults touch. Builds nothing: expects build/ made by scripts/build.sh. About 6
# minutes on an H200. Its 15 files come back packed in OUTDIR/all.tgz (pack_outputs).
#   usage: bash scripts/gpu-small-shapes.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/small-shapes
source "$(dirname "$0")/gpu-start.sh"
timeout 240 ./build/bench/gpu_bench "$out/pass_blocks.json" --pass-blocks --repeats 3 > "$out/pass_blocks.txt" 2>&1 || status=1
timeout 120 ./build/bench/gpu_bench "$out/schedule_dtypes.json" --schedule-dtypes --repeats 3 > "$out/schedule_dtypes.txt" 2>&1 ||
  status=1
timeout 180 ./build/bench/gpu_bench "$out/symmetric_schedules.json" --schedule-dtypes --symmetric --repeats 3 \
  > "$out/symmetric_schedules.txt" 2>&1 || status=1
timeout 120 ./build/bench/gpu_bench "$out/schedules.json" --no-eta --repeats 3 --schedules --only 4x8,5x8,6x8,4x16,4x32,5x16 \
  > "$out/schedules.txt" 2>&1 || status=1
timeout 60 ./build/bench/gpu_bench "$out/paper_n8.json" --no-eta --repeats 3 --only 5x8,6x8,7x8,8x8,9x8 \
  > "$out/paper_n8.txt" 2>&1 || status=1
timeout 60 ./build/bench/gpu_bench "$out/symmetric.json" --symmetric --repeats 3 > "$out/symmetric.txt" 2>&1 || status=1
timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*XOR*,*bit for bit*,symmetric takes*,*repeats itself*" > "$out/gpu_cases.log" 2>&1 ||
  status=1
cat "$out/pass_blocks.txt" "$out/schedule_dtypes.txt" "$out/symmetric_schedules.txt"
grep -E "^ *[0-9]+ +[0-9]+ " "$out/schedules.txt" "$out/paper_n8.txt"
tail -7 "$out/symmetric.txt"
tail -3 "$out/gpu_cases.log"
pack_outputs
exit $status
