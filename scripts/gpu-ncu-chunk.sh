#!/usr/bin/env bash
# On a machine with a GPU and Nsight Compute (issue 14, the chunked pass of small N with large D,
# about a tenth of the copy bandwidth: bench/results/slab_pass_profile_h200x2_2026-11-27.md): each
# chunk of the third group of a run of every DxN given (planted float32 tensors of `generate`,
# default 16x3 and 17x3: 172 and 516 MB; N = 4 is chunked in float32 from D = 16, 17 GB) under ncu:
# duration, DRAM throughput, global-load sectors and requests in L1 (coalescing),
# instructions, issue slots busy, warps active, registers, and the warp state statistics (stall
# reasons; the whole section is in the file).
# Writes OUTDIR/ncu_<DxN>.txt and prints a line a launch. Builds nothing: expects build/ made by
# scripts/build.sh.
#   usage: bash scripts/gpu-ncu-chunk.sh [OUTDIR] [DxN ...]
set -uo pipefail
default_out=/tmp/ncu-chunk
source "$(dirname "$0")/gpu-start.sh"
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(16x3 17x3)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
work=$(mktemp -d)
for shape in "${shapes[@]}"; do
  order=${shape%x*} size=${shape#*x}
  ./build/tensordiag generate --order "$order" --size "$size" --dtype float32 --seed 1 "$work/t.npy" > /dev/null || { status=1; continue; }
  # A group's chunks: the plan's count (D over the chunk's modes, rounded up); skip two groups.
  chunks=$(( (order + 5) / 6 ))
  timeout 150 ncu --clock-control none --metrics "$metrics" --section WarpStateStats -k regex:'^chunk_pass$' --launch-skip $(( 2 * chunks )) \
    --launch-count "$chunks" ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" --backend cuda \
    --max-sweeps 1 --tol 0 --stall-tol 0 --no-verify -q > "$out/ncu_$shape.txt" 2>&1 || status=1
  echo "== $shape (launches in order: memory modes 0.., then the next chunk's)"
  awk '/chunk_pass/ {n++} /gpu__time_duration|dram__throughput|dram__bytes|sectors|requests|inst_executed|issue_active|warps_active|registers|Warp Cycles Per Issued/ {
         printf "  [%d] %s %s %s\n", n, $1, $(NF-1), $NF }' "$out/ncu_$shape.txt"
  rm -rf "$work/o"
done
rm -rf "$work"
exit $status
