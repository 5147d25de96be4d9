#!/usr/bin/env bash
# On a machine with two GPUs (issue 14, overlapped changes of layout): the two-rank tests of the
# overlapped changes and of the ranks against one rank, then gpu_ranks_bench on 2 ranks with the
# changes not overlapped, overlapped in 4 pieces without the pipelined pass after them
# (TENSORDIAG_EXCHANGE_PIPELINE=0), and overlapped and pipelined in 1, 2 and 4 pieces
# (TENSORDIAG_EXCHANGE_PIECES).
# (The run in bench/results/overlap_h200x2_2026-11-27.md also tried TENSORDIAG_EXCHANGE_RESERVE,
# since removed.)
#   usage: bash scripts/gpu-overlap.sh [OUTDIR] [SHAPES...]   (default shape: 11x8)
set -uo pipefail
default_out=/tmp/overlap
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(11x8)
nvidia-smi topo -m > "$out/topology.txt" 2>&1
started=$(date +%s)
timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*overlap each change*,two GPU ranks equal one GPU rank*" \
  > "$out/rank_tests.log" 2>&1 || status=1
echo "rank tests: $(( $(date +%s) - started )) s"; tail -3 "$out/rank_tests.log"
settings="TENSORDIAG_EXCHANGE_PIECES=0;TENSORDIAG_EXCHANGE_PIECES=4,TENSORDIAG_EXCHANGE_PIPELINE=0"
for pieces in 1 2 4; do settings+=";TENSORDIAG_EXCHANGE_PIECES=$pieces"; done
timeout 300 ./build/bench/gpu_ranks_bench --ranks 2 --settings "$settings" "${shapes[@]}" 2>&1 | tee "$out/overlap.txt" || status=1
exit $status
