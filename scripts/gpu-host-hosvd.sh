#!/usr/bin/env bash
# On a machine with a GPU: the HOSVD start of the GPU engines on the host for small tensors
# (runtime/engines/gpu_hosvd_start.hpp: host_hosvd_start_pays). Runs the HOSVD and symmetric GPU
# cases, then `tensordiag diagonalize --backend cuda --init hosvd --max-sweeps 1` on planted tensors
# (noise 1e-3) with the default rule and with TENSORDIAG_HOST_HOSVD_BYTES=0 (the device's start
# always), two runs each after one: the start's place and ms (report.json's init), the run's total
# ms and the command's wall ms. Builds nothing: expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-host-hosvd.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/host-hosvd
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
started=$(date +%s)
timeout 300 ./build/tests/tensordiag_gpu_tests -ts=gpu -sf="*test_gpu_hosvd_start.cpp,*test_gpu_symmetric.cpp" \
  > "$out/gpu_cases.log" 2>&1 || status=1
echo "HOSVD and symmetric GPU cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_cases.log"
work=$(mktemp -d)
for spec in "4 16 float32" "4 32 float32" "3 128 float32" "4 16 complex64" "4 32 complex64"; do
  set -- $spec
  ./build/tensordiag generate --order "$1" --size "$2" --seed 5 --dtype "$3" --noise 1e-3 "$work/t.npy"
  for bytes in "" 0; do
    for repeat in 0 1 2; do
      rm -rf "$work/r"
      begin=$(date +%s%N)
      TENSORDIAG_HOST_HOSVD_BYTES=$bytes ./build/tensordiag diagonalize "$work/t.npy" --out "$work/r" --backend cuda \
        --init hosvd --max-sweeps 1 --no-verify -q || status=1
      end=$(date +%s%N)
      [ "$repeat" -gt 0 ] && python3 -c "import json; r = json.load(open('$work/r/report.json'))
print('D=$1 N=$2 $3 bytes=${bytes:-unset}:', r['init']['computed_on'], 'init %.1f ms, total %.1f ms, wall %.0f ms'
      % (1e3 * r['init']['seconds'], 1e3 * r['timings']['total_seconds'], ($end - $begin) / 1e6))" | tee -a "$out/starts.txt"
    done
  done
done
exit $status
