#!/usr/bin/env bash
# On a machine with a GPU: structure symmetric at D >= 3 on the GPU engine in one call -- the
# symmetric GPU tests, the whole GPU suite, then gpu_bench's symmetric table (10 sweeps of planted
# float32 tensors with structure symmetric beside the general engine on the same tensors). Expects
# build/ made by scripts/build.sh (possibly elsewhere: /work/main is linked to this checkout for the
# tests' paths). Where Nsight Compute is installed, then the per-launch times of symmetric_angles
# against the general engine's pivot_angles (D x N = 4 x 32, 6 x 8; tensors of seed 7).
# SYMMETRIC_ONLY=1 leaves out the whole suite (for a quick second call).
#   usage: bash scripts/gpu-symmetric.sh [OUTDIR] [gpu_bench options, e.g. --repeats 5]
set -uo pipefail
default_out=gpu-symmetric-out
source "$(dirname "$0")/gpu-start.sh"
./build/tests/tensordiag_gpu_tests -tc="symmetric*" 2>&1 | tee "$out/symmetric_gpu_tests.log" || status=1
if [ -z "${SYMMETRIC_ONLY:-}" ]; then
  ./build/tests/tensordiag_gpu_tests > "$out/gpu_tests.log" 2>&1 || status=1
  grep -E "ERROR|test cases|assertions|Status" "$out/gpu_tests.log" | tail -12
fi
./build/bench/gpu_bench "$out/gpu_bench_symmetric.json" --symmetric "$@" 2>&1 | tee "$out/gpu_bench_symmetric.txt" || status=1
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$ncu" ]; then
  work=$(mktemp -d)
  for shape in "4 32" "6 8"; do
    set -- $shape
    ./build/tensordiag generate "$work/t.npy" --order "$1" --size "$2" --seed 7 --dtype float32 --structure symmetric >/dev/null
    for run in "symmetric --structure symmetric" "general --schedule round-robin"; do
      set -- $shape $run
      "$ncu" --clock-control none --metrics gpu__time_duration.sum -k "regex:pivot_angles|group_pass|symmetric_angles" \
        --launch-skip 20 --launch-count 6 ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" --backend cuda \
        --max-sweeps 2 -q "${@:4}" >"$out/ncu_${3}_${1}x${2}.txt" 2>&1 || status=1
      echo "== ncu $3 D=$1 N=$2"
      grep -E '^  [a-z_]+|gpu__time_duration' "$out/ncu_${3}_${1}x${2}.txt" | sed 's/^ *//' | paste - - | awk '{print $1, $(NF)}'
    done
  done
fi
exit $status
