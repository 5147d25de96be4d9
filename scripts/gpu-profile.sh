#!/usr/bin/env bash
# On a machine with a GPU and Nsight Compute: per-kernel profiles of the benchmark's hard cases, so a
# missed speed target is explained by counters, not guesses. Expects build/ (scripts/build.sh).
#   usage: bash scripts/gpu-profile.sh [OUTDIR]
# Writes OUTDIR/profile_<case>.txt (ncu's sections) and prints each profiled kernel's duration.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-profile-out}
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "gpu-profile: ncu not found" >&2; exit 1; }
export TENSORDIAG_CACHE_DIR=$(mktemp -d)
work=$(mktemp -d)
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis"

# case NAME ORDER SIZE ETA KERNEL_REGEX SKIP COUNT [full]
profile() {
  local name=$1 order=$2 size=$3 eta=$4 kernels=$5 skip=$6 count=$7 detail=${8:-}
  local input="$work/t_${order}_${size}.npy"
  [ -e "$input" ] || ./build/tensordiag generate --order "$order" --size "$size" --seed 7 --dtype float32 "$input" >/dev/null
  local what="--metrics gpu__time_duration.sum,dram__bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed"
  [ "$detail" = full ] && what="$sections"
  "$ncu" --clock-control none $what -k "regex:$kernels" --launch-skip "$skip" --launch-count "$count" \
    ./build/tensordiag diagonalize "$input" --out "$work/out_$name" --backend cuda --max-sweeps 2 --eta "$eta" \
    >"$out/profile_$name.txt" 2>&1
  echo "== $name (D=$order N=$size eta=$eta, kernels /$kernels/, skip $skip, count $count)"
  grep -E '^  [a-z_]+\(|Duration|gpu__time_duration|dram__bytes.sum|DRAM Throughput|Memory Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Shared Memory Configuration Size' "$out/profile_$name.txt" | sed 's/^ *//' | head -80
}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
profile d9_pass 9 8 0 'group_pass' 4 2 full
profile d9_other 9 8 0 'pivot_angles|off_norm' 0 6
profile d9_eta 9 8 0.00125 'pivot_check_gather|lambda_norm|checked_angles' 0 27
profile d3n128 3 128 0 'pivot_angles|group_pass' 30 6
profile d3n128_pass 3 128 0 'group_pass' 20 1 full
profile d3n128_eta 3 128 0.00125 'pivot_check_gather|lambda_norm|checked_angles' 30 9
profile d3n128_lanczos 3 128 0.00125 'lambda_norm' 20 1 full
profile d3n256_pass 3 256 0 'group_pass' 10 1 full
profile d5n32_pass 5 32 0 'group_pass' 10 1 full
profile d3n8_small 3 8 0 'small_tensor' 0 1 full
