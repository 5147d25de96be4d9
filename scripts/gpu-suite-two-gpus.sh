#!/usr/bin/env bash
# On a machine with two GPUs: the whole GPU suite in two parts that each fit a call's time, the
# single-GPU cases first, then the GPU-rank cases (two GPUs; the four-rank cases skip with a line).
# Builds nothing: expects build/ made by scripts/build.sh. NVLink multicast stays off.
#   usage: bash scripts/gpu-suite-two-gpus.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/suite-two-gpus
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
export TENSORDIAG_COLLECTIVE_TIMEOUT=${TENSORDIAG_COLLECTIVE_TIMEOUT:-60}
git log -1 --format='%H %s' 2>/dev/null | cut -c1-120 > "$out/commit.txt"
started=$(date +%s)
timeout 320 ./build/tests/tensordiag_gpu_tests -ts=gpu -tce="*GPU rank*" > "$out/gpu_suite_one_gpu.log" 2>&1 || status=1
echo "single-GPU cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_suite_one_gpu.log"
started=$(date +%s)
timeout 230 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*GPU rank*" > "$out/gpu_suite_ranks.log" 2>&1 || status=1
echo "GPU-rank cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_suite_ranks.log"
exit $status
