#!/usr/bin/env bash
# On a machine with a GPU: the HOSVD start of complex tensors, on the host (build/base/tensordiag,
# an earlier build) against on the device (build/tensordiag). Runs the GPU HOSVD tests, then for each
# DxN:dtype case a `generate --seed 1 --noise 1e-3` tensor through `diagonalize --backend cuda
# --init hosvd --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify`, after one run each that
# compiles, ROUNDS rounds alternating the builds: report.json's init seconds and where the start
# was computed, the sweeps' seconds, and the command's wall seconds.
# Builds nothing: expects build/ made by scripts/build.sh and build/base/tensordiag.
#   usage: [ROUNDS=2] bash scripts/gpu-complex-hosvd.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/complex-hosvd
source "$(dirname "$0")/gpu-start.sh"
source "$(dirname "$0")/gpu-ab-cases.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(3x256:complex64 3x128:complex128 6x16:complex64 9x8:complex64 20x2:complex128)
./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*hosvd*" 2>&1 | tee "$out/hosvd_tests.log" | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
work=$(mktemp -d)
run() {  # program tensor: init seconds, where, sweeps seconds, wall seconds
  timed_report "$1" "$2" "'%.4f %-6s %.4f %.3f' % (r['init']['seconds'], r['init']['computed_on'],
    r['timings']['sweeps_seconds'], wall)" --backend cuda --init hosvd --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify
}
printf '%-18s %-6s %9s %-6s %9s %8s\n' case build init_s on sweeps_s wall_s | tee "$out/table.txt"
ab_cases "${cases[@]}"
rm -rf "$work"
exit $status
