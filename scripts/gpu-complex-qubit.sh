#!/usr/bin/env bash
# On a machine with a GPU: complex N = 2 tensors on the qubit path (complex64 from D = 18), against
# the build before it (build/base/tensordiag: the split angles and chunked passes), and float32
# N = 2 on both builds (the same kernels, now written for complex values too). Runs the qubit and
# complex GPU tests, then for each DxN:dtype case (gpu-ab-cases.sh) prints the milliseconds a sweep
# (report.json's sweeps_seconds over 10 forced sweeps), the engine, and the whole command's wall
# seconds with the device verification.
# Builds nothing: expects build/ made by scripts/build.sh and build/base/tensordiag.
#   usage: bash scripts/gpu-complex-qubit.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/complex-qubit
source "$(dirname "$0")/gpu-start.sh"
source "$(dirname "$0")/gpu-ab-cases.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(18x2:complex64 20x2:complex64 24x2:complex64 28x2:complex64 24x2:float32 28x2:float32)
./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*qubit*,*complex*" 2>&1 | tee "$out/tests.log" | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
work=$(mktemp -d)
run() {  # program tensor: ms a sweep, engine, wall seconds of the verified command, reconstruction error
  timed_report "$1" "$2" "'%.3f ms/sweep  %-14s wall %.2f s  rec %.2e' % (1e3 * r['timings']['sweeps_seconds'] / r['sweeps'],
    r['engine'], wall, r['reconstruction_error'])" --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0
}
ab_cases "${cases[@]}"
rm -rf "$work"
exit $status
