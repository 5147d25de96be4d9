#!/usr/bin/env bash
# On a machine with a GPU (issue 11, item 3): complex symmetric tensors from order 4 on the general
# GPU engine (the pairs' sums on the device, the searched unitary step on the host's threads). Runs
# the complex GPU cases (test_gpu_complex.cpp), then scripts/gpu-complex-symmetric.sh's bench for
# orders 3 to 16 (complex64, 10 sweeps fixed: GPU symmetric, GPU general, CPU symmetric), then the
# CPU symmetric runs of build/base/tensordiag (a build before this change: the steps of a group one
# after another on one thread) on the same files, REPEATS (default 3) timed runs each.
# TESTS=0: not the GPU cases. Builds nothing: expects build/ made by scripts/build.sh and
# build/base/tensordiag.
#   usage: bash scripts/gpu-searched-step.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/searched-step
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
if [ "${TESTS:-1}" != 0 ]; then
  started=$(date +%s)
  timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu -sf="*test_gpu_complex.cpp" > "$out/gpu_cases.log" 2>&1 || status=1
  echo "complex GPU cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_cases.log"
fi
shapes=${SHAPES:-3x32 4x16 4x32 5x8 6x6 8x4 12x3 16x2}
SUITE=none PYTHON=0 REPEATS=${REPEATS:-3} SHAPES="$shapes" bash scripts/gpu-complex-symmetric.sh "$out/bench" || status=1
if [ -x build/base/tensordiag ]; then
  work=$(mktemp -d)
  echo "D  N     base CPU symmetric: ms_10_sweeps (median of ${REPEATS:-3})" | tee "$out/base_cpu.txt"
  for shape in $shapes; do
    order=${shape%x*}; size=${shape#*x}
    [ "$order" -ge 4 ] || continue
    ./build/tensordiag generate --order "$order" --size "$size" --seed 5 --dtype complex64 --structure symmetric "$work/t.npy"
    for repeat in $(seq 1 "${REPEATS:-3}"); do
      rm -rf "$work/r"
      timeout 120 ./build/base/tensordiag diagonalize "$work/t.npy" --out "$work/r" --structure symmetric --backend cpu \
        --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify -q > /dev/null 2>&1 || status=1
      python3 -c "import json; print(1e3 * json.load(open('$work/r/report.json'))['timings']['sweeps_seconds'])" >> "$work/ms_$shape"
    done
    printf "%-2s %-5s %s\n" "$order" "$size" "$(sort -g "$work/ms_$shape" | sed -n "$(( (${REPEATS:-3} + 1) / 2 ))p")" | tee -a "$out/base_cpu.txt"
  done
fi
exit $status
