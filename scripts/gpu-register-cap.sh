#!/usr/bin/env bash
# On a machine with a GPU (issues 15 and 14): float32 N = 8 at D = 9, 10, 11, where group_pass
# takes 80, 123 and 128 registers a thread (NVRTC), with its register bound unset and at 80 and 96
# (TENSORDIAG_PASS_MAX_REGISTERS): one rank's sweeps made on the device (gpu_ranks_bench --ranks 1
# --made-on-ranks: the local passes, no exchange). Then the checks of the packed and borrowed paths
# last run on the CPU only: the GPU suite's packed cases and the Python suite on the GPU.
# Builds nothing: expects build/ made by scripts/build.sh (and build/device-libs for Python).
#   usage: bash scripts/gpu-register-cap.sh [OUTDIR] [SHAPES...]   (default 9x8 10x8 11x8)
set -uo pipefail
default_out=/tmp/register-cap
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(9x8 10x8 11x8)
for registers in "" 80 96; do
  echo "== TENSORDIAG_PASS_MAX_REGISTERS=${registers:-unset}" | tee -a "$out/register_cap.txt"
  TENSORDIAG_PASS_MAX_REGISTERS=$registers timeout 100 ./build/bench/gpu_ranks_bench --ranks 1 --made-on-ranks \
    "${shapes[@]}" 2>&1 | tee -a "$out/register_cap.txt" || status=1
done
started=$(date +%s)
timeout 120 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*packed*" > "$out/packed_cases.log" 2>&1 || status=1
echo "packed GPU cases: $(( $(date +%s) - started )) s"; tail -3 "$out/packed_cases.log"
started=$(date +%s)
timeout 150 bash scripts/gpu-python.sh > "$out/python.log" 2>&1 || status=1
echo "Python suite: $(( $(date +%s) - started )) s"; tail -2 "$out/python.log"
exit $status
