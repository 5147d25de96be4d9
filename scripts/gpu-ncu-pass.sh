#!/usr/bin/env bash
# On a machine with a GPU and Nsight Compute: one group_pass launch (the 5th) of D = 9, N = 8,
# float32 and complex64, under ncu: duration, instructions executed, issue slots busy, DRAM
# throughput, warps active, registers. Writes OUTDIR/ncu_<dtype>_<LABEL>.txt and prints a line each.
# The caller's environment reaches the run (e.g. TENSORDIAG_PASS_PREFETCH).
#   usage: bash scripts/gpu-ncu-pass.sh OUTDIR LABEL CLI
set -uo pipefail
out=$1 label=$2 cli=$3
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "  ncu not found"; exit 0; }
work=$(mktemp -d)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for dtype in float32 complex64; do
  input="$work/p_$dtype.npy"
  "$cli" generate --order 9 --size 8 --dtype $dtype --seed 7 "$input" >/dev/null
  timeout 120 "$ncu" --clock-control none --metrics "$metrics" -k regex:group_pass --launch-skip 4 --launch-count 1 \
    "$cli" diagonalize "$input" --out "$work/ncu_out" --backend cuda --max-sweeps 2 > "$out/ncu_${dtype}_$label.txt" 2>&1
  echo "  $dtype $label: $(grep -E 'gpu__time_duration|dram__throughput|inst_executed|issue_active|warps_active|registers' "$out/ncu_${dtype}_$label.txt" |
    awk '{printf "%s %s %s; ", $1, $(NF-1), $NF}')"
done
rm -rf "$work"
