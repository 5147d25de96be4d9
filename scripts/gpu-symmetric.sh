#!/usr/bin/env bash
# On a machine with a GPU: structure symmetric at D >= 3 on the GPU engine in one call -- the
# symmetric GPU tests, the whole GPU suite, then gpu_bench's symmetric table (10 sweeps of planted
# float32 tensors with structure symmetric beside the general engine on the same tensors). Expects
# build/ made by scripts/build.sh (possibly elsewhere: /work/main is linked to this checkout for the
# tests' paths).
#   usage: bash scripts/gpu-symmetric.sh [OUTDIR] [gpu_bench options, e.g. --repeats 5]
set -uo pipefail
default_out=gpu-symmetric-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests -tc="symmetric*" 2>&1 | tee "$out/symmetric_gpu_tests.log" || status=1
./build/tests/tensordiag_gpu_tests > "$out/gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|test cases|assertions|Status" "$out/gpu_tests.log" | tail -12
./build/bench/gpu_bench "$out/gpu_bench_symmetric.json" --symmetric "$@" 2>&1 | tee "$out/gpu_bench_symmetric.txt" || status=1
exit $status
