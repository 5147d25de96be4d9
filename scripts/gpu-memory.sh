#!/usr/bin/env bash
# On a machine with a GPU: the device memory of GPU runs (issue 15 item 4: <= 2.2 x the tensor's
# bytes) in one call -- the whole GPU suite (among it the verified runs' peak test), the command on
# a 64 MB tensor (report.json's device_memory_peak_bytes), then gpu_large_bench with the device
# verification on the issue's shapes. Expects build/ made by scripts/build.sh (possibly elsewhere).
#   usage: bash scripts/gpu-memory.sh [OUTDIR] [COPY_GBS (gpu_bench's device-to-device copy)] [DxN ...]
set -uo pipefail
default_out=gpu-memory-out
source "$(dirname "$0")/gpu-start.sh"
copy=${1:-2978}
shift || true
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(6x16 12x4 30x2)
./build/tests/tensordiag_gpu_tests > "$out/gpu_tests.log" 2>&1 || status=1
grep -E "ERROR|test cases|assertions|Status" "$out/gpu_tests.log" | tail -12
work=$(mktemp -d)
{
  ./build/tensordiag generate --order 6 --size 16 --seed 1 --dtype float32 "$work/t.npy" >/dev/null &&
    /usr/bin/time -f "command: %e s wall, %M KB host peak" ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" \
      --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0 &&
    grep -E '"engine"|"device_memory_peak_bytes"|"reconstruction_error"|"verification_seconds"' "$work/o/report.json" &&
    echo "tensor bytes: $(( $(stat -c %s "$work/t.npy") - 128 ))"
} 2>&1 | tee "$out/command.log" || status=1
./build/bench/gpu_large_bench "$copy" --verify "${shapes[@]}" 2>&1 | tee "$out/gpu_large_bench.txt" || status=1
exit $status
