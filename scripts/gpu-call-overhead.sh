#!/usr/bin/env bash
# On a machine with a GPU: the library call end to end (issue 15 item 4: D = 3, N = 32, call to
# result in host memory, warm kernel cache, <= 2 ms) in one call -- the whole GPU suite, then
# gpu_bench --end-to-end (N = 8, 16, 32: the call's wall time with report.json's setup, kernel,
# sweep and total times beside). Expects build/ made by scripts/build.sh (possibly elsewhere).
#   usage: bash scripts/gpu-call-overhead.sh [OUTDIR] [gpu_bench options, e.g. --repeats 9]
set -uo pipefail
default_out=gpu-call-overhead-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests > "$out/gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|test cases|assertions|Status" "$out/gpu_tests.log" | tail -12
./build/bench/gpu_bench "$out/end_to_end.json" --end-to-end "$@" 2>&1 | tee "$out/end_to_end.txt" || status=1
exit $status
