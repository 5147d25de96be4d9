#!/usr/bin/env bash
# On a machine with two GPUs (issue 14, GPU ranks over NCCL in one process): the GPU ranks' tests,
# a CLI run with --devices 0,1 whose outputs are checked against the input (the reconstruction
# C x_1 M_1 .. x_D M_D, with numpy), the scaling benchmark (gpu_ranks_bench: one GPU against one
# and two GPU ranks, float32, 10 sweeps), then the whole GPU suite. Builds nothing: expects build/
# made by scripts/build.sh (the compiled-in paths of the test helpers are made valid by linking
# /work/main to this checkout). NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
#   usage: bash scripts/gpu-ranks.sh OUTDIR [DxN ...]     (default shapes: 11x8 8x16)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bash scripts/gpu-ranks.sh OUTDIR [DxN ...]}
shift
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(11x8 8x16)
mkdir -p "$out"
if [ ! -e /work/main/build ] && [ "$(id -u)" -eq 0 ]; then mkdir -p /work && ln -sfn "$PWD" /work/main; fi
export NCCL_NVLS_ENABLE=0 NCCL_DEBUG=${NCCL_DEBUG:-WARN}
# A lost rank turns into an error within a minute instead of a hang (the tests' ranks wait seconds).
export TENSORDIAG_COLLECTIVE_TIMEOUT=${TENSORDIAG_COLLECTIVE_TIMEOUT:-60}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/device.txt"
nvidia-smi topo -m > "$out/topology.txt" 2>&1
git log -1 --format='%H %s' 2>/dev/null | tee "$out/commit.txt"
export TENSORDIAG_CACHE_DIR=$(mktemp -d)
status=0
timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*GPU rank*" -d 2>&1 | tee "$out/gpu_ranks_tests.log" ||
  status=1

work=$(mktemp -d)
./build/tensordiag generate --order 6 --size 8 --seed 7 --noise 0.1 --dtype float64 "$work/t.npy" &&
  timeout 60 ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" --devices 0,1 --max-sweeps 6 2>&1 |
  tee "$out/cli_devices.txt" &&
  python3 scripts/check-distributed-outputs.py "$work/t.npy" "$work/o" "--devices 0,1" 2>&1 |
  tee -a "$out/cli_devices.txt" || status=1
rm -rf "$work"

[ $status -eq 0 ] && { timeout 300 ./build/bench/gpu_ranks_bench --ranks 1,2 "${shapes[@]}" 2>&1 |
  tee "$out/gpu_ranks_bench.txt" || status=1; }
[ -z "${SKIP_SUITE:-}" ] && { ./build/tests/tensordiag_gpu_tests -ts=gpu 2>&1 | tail -5 | tee "$out/gpu_tests.log" || status=1; }
exit $status
