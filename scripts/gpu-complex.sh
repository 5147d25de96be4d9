#!/usr/bin/env bash
# On a machine with a GPU: complex tensors on the GPU engine (issue 11, item 3) in one call -- the
# complex GPU tests, the command with a complex64 file on --backend cuda (and --eta, which the GPU
# declines for complex tensors: auto runs it on the CPU with a note), then gpu_bench's complex
# table (complex64 / complex128 beside float32 / float64, 10 sweeps). Expects build/ made by
# scripts/build.sh (possibly elsewhere: /work/main is linked to this checkout for the tests' paths).
#   usage: bash scripts/gpu-complex.sh [OUTDIR] [gpu_bench options, e.g. --repeats 3]
set -uo pipefail
default_out=gpu-complex-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests -tc="*complex*" 2>&1 | tee "$out/complex_gpu_tests.log" || status=1

work=$(mktemp -d)
{
  ./build/tensordiag generate --order 5 --size 8 --seed 1 --dtype complex64 "$work/z.npy" &&
    ./build/tensordiag diagonalize "$work/z.npy" --out "$work/gpu" --backend cuda &&
    grep -m4 -E '"engine"|"device"|"stop_reason"|"dtype"' "$work/gpu/report.json" &&
    ./build/tensordiag diagonalize "$work/z.npy" --out "$work/checked" --eta 0.001 &&
    grep -m1 -E '"engine"' "$work/checked/report.json"
} 2>&1 | tee "$out/cli_complex_on_gpu.log" || status=1

./build/bench/gpu_bench "$out/gpu_bench_complex.json" --complex "$@" 2>&1 | tee "$out/gpu_bench_complex.txt" || status=1
exit $status
