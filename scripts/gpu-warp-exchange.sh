#!/usr/bin/env bash
# On a machine with a GPU (issues 15 and 11): group_pass with its exchanges between lanes of a warp
# by shuffles, and float64's bound of 128 registers a thread, against a base build without them
# (build/base/gpu_bench, copied from an earlier build): the whole GPU suite, then gpu_bench's
# complex table (float32, float64, complex64, complex128 on the round robin; float32 also with its
# default schedule) with the base build and with this one. Other settings:
# TENSORDIAG_PASS_WARP_SHUFFLES, TENSORDIAG_PASS_MAX_REGISTERS. Builds nothing: expects build/
# made by scripts/build.sh.
#   usage: bash scripts/gpu-warp-exchange.sh [OUTDIR] [SHAPES]   (SHAPES as gpu_bench --only)
set -uo pipefail
default_out=/tmp/warp-exchange
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=${1:-9x8,8x8,7x8,10x4,6x16}
timeout 330 ./build/tests/tensordiag_gpu_tests -ts=gpu > "$out/gpu_suite.log" 2>&1 || status=1
tail -3 "$out/gpu_suite.log"
bash scripts/gpu-complex-table.sh "$out" base ./build/base/gpu_bench "$shapes" 130
bash scripts/gpu-complex-table.sh "$out" new ./build/bench/gpu_bench "$shapes" 130
exit $status
