#!/usr/bin/env bash
# On a machine with a GPU: the GPU test suite, then the GPU benchmark, in one call. Expects build/
# made by scripts/build.sh (it may come from another machine: the compiled-in paths of the test
# helpers are made valid by linking /work/main to this checkout when they differ).
#   usage: bash scripts/gpu-check.sh [OUTDIR] [bench options, e.g. --quick --repeats 3]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-check-out}
shift || true
mkdir -p "$out"
if [ ! -e /work/main/build ] && [ "$(id -u)" -eq 0 ]; then mkdir -p /work && ln -sfn "$PWD" /work/main; fi
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv | tee "$out/device.txt"
export TENSORDIAG_CACHE_DIR=$(mktemp -d)  # the first run compiles: cold kernel loads are measured
status=0
./build/tests/tensordiag_gpu_tests 2>&1 | tee "$out/gpu_tests.log" || status=1
./build/bench/gpu_bench "$out/gpu_bench.json" "$@" 2>&1 | tee "$out/gpu_bench.txt" || status=1
exit $status
