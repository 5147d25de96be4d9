#!/usr/bin/env bash
# GPU ranks at small N and large D (issue 14: every D the memory allows), on two GPUs: the cases
# where the angles take the split kernels and the pass the chunked one (two ranks against one,
# bit for bit; one rank against the CPU), then the other GPU-rank cases, then gpu_ranks_bench on
# those shapes (float32, 10 sweeps, one GPU against one and two GPU ranks). Builds nothing: expects
# build/ made by scripts/build.sh. NVLink multicast stays off.
#   usage: bash scripts/gpu-large-order-ranks.sh [OUTDIR] [DxN ...]   (default shapes 14x4 16x4)
set -uo pipefail
default_out=/tmp/large-order-ranks
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
export TENSORDIAG_COLLECTIVE_TIMEOUT=${TENSORDIAG_COLLECTIVE_TIMEOUT:-60}
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(14x4 16x4)
git log -1 --format='%H %s' 2>/dev/null | cut -c1-120 > "$out/commit.txt"
nvidia-smi topo -m > "$out/topology.txt" 2>&1
started=$(date +%s)
timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu \
  -tc="*split kernels*,one GPU rank equals the CPU*" > "$out/large_order_tests.log" 2>&1 || status=1
echo "large-order cases: $(( $(date +%s) - started )) s"; tail -3 "$out/large_order_tests.log"
started=$(date +%s)
timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*GPU rank*" \
  -tce="*split kernels*,one GPU rank equals the CPU*" > "$out/rank_tests.log" 2>&1 || status=1
echo "other GPU-rank cases: $(( $(date +%s) - started )) s"; tail -3 "$out/rank_tests.log"
timeout 150 ./build/bench/gpu_ranks_bench --ranks 1,2 "${shapes[@]}" > "$out/bench.txt" 2>&1 || status=1
cat "$out/bench.txt"
exit $status
