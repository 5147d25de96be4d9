#!/usr/bin/env bash
# On a machine with a GPU and Nsight Compute: counters of the XOR subspace pass's two kernels
# (subspace_angles, subspace_apply) and of the one-block engine (small_tensor) at issue 15's shapes.
#   usage: bash scripts/gpu-profile-xor.sh [OUTDIR]
set -uo pipefail
default_out=gpu-profile-xor-out
source "$(dirname "$0")/gpu-start.sh"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "gpu-profile-xor: ncu not found" >&2; exit 1; }
work=$(mktemp -d)
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis --section SchedulerStats --section InstructionStats"

# profile NAME ORDER SIZE SCHEDULE BITS KERNEL_REGEX SKIP COUNT
profile() {
  local name=$1 order=$2 size=$3 schedule=$4 bits=$5 kernels=$6 skip=$7 count=$8
  local input="$work/t_${order}_${size}.npy"
  [ -e "$input" ] || ./build/tensordiag generate --order "$order" --size "$size" --seed 7 --dtype float32 "$input" >/dev/null
  TENSORDIAG_SUBSPACE_BITS=$bits "$ncu" --clock-control none $sections -k "regex:$kernels" --launch-skip "$skip" --launch-count "$count" \
    ./build/tensordiag diagonalize "$input" --out "$work/out_$name" --backend cuda --max-sweeps 2 --schedule "$schedule" \
    >"$out/profile_$name.txt" 2>&1
  echo "== $name (D=$order N=$size $schedule bits=$bits, /$kernels/, skip $skip, count $count)"
  grep -E '^  [a-z_]+\(|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Dynamic Shared|Block Size|Grid Size|Executed Ipc A|Stall|L1/TEX Hit|L2 Hit' "$out/profile_$name.txt" | sed 's/^ *//' | head -60
}

profile d3n128_xor8 3 128 xor 3 'subspace_angles|subspace_apply' 4 2
profile d3n64_xor8 3 64 xor 3 'subspace_angles|subspace_apply' 4 2
profile d7n8_xor4 7 8 xor 2 'subspace_angles|subspace_apply' 2 2
profile d6n16_xor4 6 16 xor 2 'subspace_apply' 2 1
profile d3n8_small 3 8 round-robin 0 'small_tensor' 0 1
profile d9n8_pass 9 8 round-robin 0 'group_pass|pivot_angles' 4 2
