#!/usr/bin/env bash
# On a machine with a GPU, the checks a session ends with: the whole GPU suite, the Python suite on
# the GPU (scripts/gpu-python.sh; carry build/device-libs), then gpu_bench's XOR shapes and its
# symmetric table with the default tuning. Builds nothing: expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-final-check.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/final-check
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
started=$(date +%s)
timeout 400 ./build/tests/tensordiag_gpu_tests -ts=gpu > "$out/gpu_suite.log" 2>&1 || status=1
echo "GPU suite: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_suite.log"
started=$(date +%s)
timeout 150 bash scripts/gpu-python.sh > "$out/python.log" 2>&1 || status=1
echo "Python suite: $(( $(date +%s) - started )) s"; tail -2 "$out/python.log"
timeout 60 ./build/bench/gpu_bench /tmp/general.json --no-eta --repeats 3 --only 3x64,3x128,3x256,4x16,4x64,6x16 2>&1 |
  tee "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ " | head -6
timeout 60 ./build/bench/gpu_bench /tmp/symmetric.json --symmetric --repeats 3 2>&1 | tee -a "$out/bench.txt" |
  grep -E "^ *[0-9]+ +[0-9]+ "
exit $status
