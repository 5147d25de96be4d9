#!/usr/bin/env bash
# On a machine with a GPU (issues 11 and 15): the checked path's angles from the gather's pivot
# entries (checked_angles) against the build before them (build/base: pivot_angles_mode, a warp's
# subtensor carried between modes, and the CPU where it did not fit). Runs the pivot check's GPU
# cases; then gpu_bench's checked and unchecked D = 9 N = 8 and D = 3 N = 128 (float32, 10 sweeps,
# eta = 0.00125, median of 3), the two builds alternated ROUNDS times (default 2); then N = 3 tensors
# with D = 14 and 16 (float32, eta = 0.3, 3 sweeps fixed, `--backend auto`): the engine each build
# took, milliseconds a sweep and the command's wall seconds.
# Builds nothing: expects build/ made by scripts/build.sh, build/base/tensordiag and
# build/base/bench/gpu_bench.
#   usage: bash scripts/gpu-checked-angles.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/checked-angles
source "$(dirname "$0")/gpu-start.sh"
source "$(dirname "$0")/gpu-ab-cases.sh"
export NCCL_NVLS_ENABLE=0
started=$(date +%s)
timeout 300 ./build/tests/tensordiag_gpu_tests -ts=gpu \
  -tc="*pivot check*,*auto runs*,*complex tensors with the pivot*,*split*" > "$out/gpu_cases.log" 2>&1 || status=1
echo "pivot check cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_cases.log"
for round in $(seq 1 "${ROUNDS:-2}"); do
  for binary in build/base build; do
    tag=$(basename "$binary")
    timeout 150 "./$binary/bench/gpu_bench" --only 9x8,3x128 --repeats 3 > "$out/bench_${tag}_$round.txt" 2>&1 || status=1
    grep -E "^(9|3) " "$out/bench_${tag}_$round.txt" | sed "s/^/$tag $round  /"
  done
done
work=$(mktemp -d)
run() {  # program tensor: engine, sweeps, ms a sweep, wall
  timed_report "$1" "$2" "'%-8s %d sweeps %9.3f ms/sweep  wall %.2f s' % (r['engine'], r['sweeps'],
    1e3 * r['timings']['sweeps_seconds'] / r['sweeps'], wall)" \
    --eta 0.3 --max-sweeps 3 --tol 0 --stall-tol 0 --no-verify
}
ROUNDS=1 ab_cases 14x3:float32 16x3:float32
rm -rf "$work"
exit $status
