#!/usr/bin/env bash
# On a machine with a GPU (issues 15 and 11): group_pass with each exchanged mode's coefficient
# chosen once a thread (c x + t y, t = conj(s) at p, -s at q) against a base build that formed both
# sides' products an entry and selected one (build/head/{tensordiag,gpu_bench}, copied from the
# earlier build):
#   1. the CLI's core and factors of both builds compared byte for byte (cmp) on real and complex,
#      even and odd N;
#   2. Nsight Compute on one group_pass launch of D = 9, N = 8, float32 and complex64, both builds
#      (instructions executed, issue activity, DRAM throughput, duration), where ncu is installed;
#   3. gpu_bench's complex table (float32, float64, complex64, complex128, round robin) with both
#      builds, and complex64 at D = 9, N = 8 under other register bounds.
# Builds nothing: expects build/ made by scripts/build.sh and build/head/.
#   usage: bash scripts/gpu-mix-once.sh [OUTDIR] [SHAPES]   (SHAPES as gpu_bench --only)
set -uo pipefail
default_out=/tmp/mix-once
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=${1:-9x8,8x8,7x8,10x4,6x16}
work=$(mktemp -d)

echo "== 1. outputs, base against new (cmp)"
for c in "9 8 float32" "9 8 complex64" "8 8 float64" "7 8 complex128" "6 16 float32" "5 7 float64" "4 9 complex64" "12 3 float32"; do
  set -- $c
  input="$work/t_$1_$2_$3.npy"
  ./build/tensordiag generate --order "$1" --size "$2" --dtype "$3" --seed 11 --noise 0.01 "$input" >/dev/null
  for build in head new; do
    cli=./build/tensordiag
    [ $build = head ] && cli=./build/head/tensordiag
    $cli diagonalize "$input" --out "$work/out_$build" --backend cuda --max-sweeps 6 >/dev/null 2>"$work/err_$build" ||
      { echo "  $c: $build failed: $(head -1 "$work/err_$build")"; status=1; }
  done
  same=yes
  for f in "$work"/out_head/*.npy; do cmp -s "$f" "$work/out_new/$(basename "$f")" || same=no; done
  echo "  D=$1 N=$2 $3: core and factors bit for bit: $same"
  [ $same = yes ] || status=1
  rm -rf "$work"/out_head "$work"/out_new
done

echo "== 2. Nsight Compute, one group_pass launch"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
if [ -n "$ncu" ]; then
  metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
  for dtype in float32 complex64; do
    input="$work/p_$dtype.npy"
    ./build/tensordiag generate --order 9 --size 8 --dtype $dtype --seed 7 "$input" >/dev/null
    for build in head new; do
      cli=./build/tensordiag
      [ $build = head ] && cli=./build/head/tensordiag
      timeout 120 "$ncu" --clock-control none --metrics "$metrics" -k regex:group_pass --launch-skip 4 --launch-count 1 \
        $cli diagonalize "$input" --out "$work/ncu_out" --backend cuda --max-sweeps 2 > "$out/ncu_${dtype}_$build.txt" 2>&1
      echo "  $dtype $build: $(grep -E 'gpu__time_duration|dram__throughput|inst_executed|issue_active|warps_active|registers' "$out/ncu_${dtype}_$build.txt" |
        awk '{printf "%s %s %s; ", $1, $(NF-1), $NF}')"
    done
  done
else
  echo "  ncu not found"
fi

echo "== 3. gpu_bench --complex, base and new"
for build in head new; do
  bench=./build/bench/gpu_bench
  [ $build = head ] && bench=./build/head/gpu_bench
  echo "== $build: $bench" | tee -a "$out/bench.txt"
  TENSORDIAG_CACHE_DIR=$(mktemp -d) timeout 150 $bench "$out/complex_$build.json" --complex --only "$shapes" --repeats 3 2>&1 |
    tee -a "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ "
done
for bound in 0 80; do
  echo "== new, TENSORDIAG_PASS_MAX_REGISTERS=$bound (complex64's bound; others too)" | tee -a "$out/bench.txt"
  TENSORDIAG_PASS_MAX_REGISTERS=$bound TENSORDIAG_CACHE_DIR=$(mktemp -d) timeout 60 ./build/bench/gpu_bench \
    "$out/complex_bound_$bound.json" --complex --only 9x8 --repeats 3 2>&1 | tee -a "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ "
done
exit $status
