#!/usr/bin/env bash
# On a machine with a GPU: the GPU test suite, the command on the GPU, then the GPU benchmark, in
# one call. Expects build/ made by scripts/build.sh (it may come from another machine: the
# compiled-in paths of the test helpers are made valid by linking /work/main to this checkout).
#   usage: bash scripts/gpu-check.sh [OUTDIR] [gpu_bench options, e.g. --quick --repeats 3 --sweep]
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

# The command end to end on the GPU: one tensor, a checked run, and a batch.
work=$(mktemp -d)
{
  ./build/tensordiag generate --order 5 --size 8 --seed 1 --dtype float32 "$work/t.npy" &&
    ./build/tensordiag diagonalize "$work/t.npy" --out "$work/one" --backend cuda &&
    ./build/tensordiag diagonalize "$work/t.npy" --out "$work/checked" --backend cuda --eta 0.00125 &&
    python3 -c "
import numpy as np
rng = np.random.default_rng(5)
np.save('$work/batch.npy', rng.standard_normal((64, 6, 6, 6)))" &&
    ./build/tensordiag diagonalize "$work/batch.npy" --out "$work/batch" --backend cuda --batch &&
    grep -m3 -E '"backend"|"device"|"stop_reason"' "$work/one/report.json"
} 2>&1 | tee "$out/cli_on_gpu.log" || status=1

./build/bench/gpu_bench "$out/gpu_bench.json" "$@" 2>&1 | tee "$out/gpu_bench.txt" || status=1
exit $status
