#!/usr/bin/env bash
# On a machine with a GPU (issue 11, item 1: packed symmetric storage on the GPU): the packed GPU
# tests, the command end to end on a packed file, then the benchmark (bench/gpu_packed_bench.cpp)
# in float64 and float32. Builds nothing: expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-packed.sh [OUTDIR] [DxN ...]   (default shapes: the bench's)
set -uo pipefail
default_out=/tmp/packed
source "$(dirname "$0")/gpu-start.sh"
timeout 300 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="packed on the GPU*" -d 2>&1 | tail -12 | tee "$out/tests.log" ||
  status=1
work=$(mktemp -d)
{
  ./build/tensordiag generate --order 6 --size 16 --seed 3 --noise 0.01 --structure symmetric --packed "$work/p.npy" &&
    /usr/bin/time -f "peak resident %M KB, %e s wall" ./build/tensordiag diagonalize "$work/p.npy" --packed 6 \
      --out "$work/gpu" --backend cuda --max-sweeps 10 &&
    ./build/tensordiag diagonalize "$work/p.npy" --packed 6 --out "$work/cpu" --backend cpu --max-sweeps 10 &&
    python3 -c "
import json, numpy as np
g, c = (json.load(open('$work/' + d + '/report.json')) for d in ('gpu', 'cpu'))
for k in ('engine', 'device', 'sweeps', 'stop_reason', 'off_rel', 'reconstruction_error', 'orthogonality_error'):
    print(k, g.get(k), '|', c.get(k))
a, b = np.load('$work/gpu/core.npy'), np.load('$work/cpu/core.npy')
print('core max |gpu - cpu| / max |cpu|:', np.abs(a - b).max() / np.abs(b).max())"
} 2>&1 | tee "$out/cli.txt" || status=1
rm -rf "$work"
timeout "${BENCH_SECONDS:-300}" ./build/bench/gpu_packed_bench --dtype float64 "$@" 2>&1 | tee "$out/bench_float64.txt" || status=1
[ -z "${SKIP_FLOAT32:-}" ] && { timeout 120 ./build/bench/gpu_packed_bench --dtype float32 --no-cpu 3x128 6x16 4x64 10x8 6x32 2>&1 |
  tee "$out/bench_float32.txt" || status=1; }
exit $status
