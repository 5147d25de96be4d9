#!/usr/bin/env bash
# On a machine with two GPUs: the whole GPU suite in two parts, the single-GPU cases, then the
# GPU-rank cases (two GPUs; the four-rank cases skip with a line), each under a 560 s time-out.
# Each part alone takes most of a 600 s device call (two H200s, 2026-11-28: the single-GPU cases over
# 320 s, the GPU-rank cases over 230 s), so PART names the one to run: one-gpu, ranks, or both (more
# than one call's time). Builds nothing: expects build/ made by scripts/build.sh. NVLink multicast
# stays off.
#   usage: bash scripts/gpu-suite-two-gpus.sh [OUTDIR] [one-gpu|ranks|both]
set -uo pipefail
default_out=/tmp/suite-two-gpus
source "$(dirname "$0")/gpu-start.sh"
part=${1:-both}
export NCCL_NVLS_ENABLE=0
export TENSORDIAG_COLLECTIVE_TIMEOUT=${TENSORDIAG_COLLECTIVE_TIMEOUT:-60}
git log -1 --format='%H %s' 2>/dev/null | cut -c1-120 > "$out/commit.txt"
limit=560
if [ "$part" != ranks ]; then
  started=$(date +%s)
  timeout $limit ./build/tests/tensordiag_gpu_tests -ts=gpu -tce="*GPU rank*" > "$out/gpu_suite_one_gpu.log" 2>&1 || status=1
  echo "single-GPU cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_suite_one_gpu.log"
fi
if [ "$part" != one-gpu ]; then
  started=$(date +%s)
  timeout $limit ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*GPU rank*" > "$out/gpu_suite_ranks.log" 2>&1 || status=1
  echo "GPU-rank cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_suite_ranks.log"
fi
exit $status
