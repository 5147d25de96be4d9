#!/usr/bin/env bash
# On a machine with a GPU: structure skew at D >= 3 on the GPU engine in one call -- the skew GPU
# tests, the whole GPU suite (the engine's figures path changed for every run), the command on the
# GPU (a planted skew tensor, verified, its report), then gpu_bench's skew table (10 sweeps of
# planted float32 skew tensors on the GPU beside the CPU skew engine and the general engine's
# round robin). Expects build/ made by scripts/build.sh (possibly elsewhere: /work/main is linked
# to this checkout for the tests' paths).
#   usage: bash scripts/gpu-skew.sh [OUTDIR] [gpu_bench options, e.g. --repeats 5]
set -uo pipefail
default_out=gpu-skew-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests -tc="skew*" > "$out/skew_gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|test cases|assertions|Status" "$out/skew_gpu_tests.log" | head -20
./build/tests/tensordiag_gpu_tests > "$out/gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|test cases|assertions|Status" "$out/gpu_tests.log" | head -20
work=$(mktemp -d)
./build/tensordiag generate --order 4 --size 21 --seed 7 --structure skew --noise 1e-3 "$work/skew.npy" &&
  ./build/tensordiag diagonalize "$work/skew.npy" --out "$work/result" --structure skew --backend cuda \
    > "$out/cli_skew.log" 2>&1 || status=1
cat "$out/cli_skew.log"
cp "$work/result/report.json" "$out/cli_skew_report.json" 2>/dev/null || status=1
./build/bench/gpu_bench "$out/gpu_bench_skew.json" --skew "$@" 2>&1 | tee "$out/gpu_bench_skew.txt" || status=1
exit $status
