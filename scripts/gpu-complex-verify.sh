#!/usr/bin/env bash
# On a machine with a GPU: the verification of complex GPU runs, on the host (build/base/tensordiag,
# an earlier build) against on the device (build/tensordiag). For each DxN:dtype case a `generate
# --seed 1 --noise 1e-3` tensor through `diagonalize --backend cuda --max-sweeps 10 --tol 0
# --stall-tol 0` (verified), after one run each that compiles, ROUNDS rounds alternating the two
# builds: report.json's verification_seconds, reconstruction and orthogonality errors, and the
# command's wall seconds.
# Builds nothing: expects build/ made by scripts/build.sh and build/base/tensordiag.
#   usage: [ROUNDS=2] bash scripts/gpu-complex-verify.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/complex-verify
source "$(dirname "$0")/gpu-start.sh"
source "$(dirname "$0")/gpu-ab-cases.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(3x128:complex64 3x256:complex128 6x16:complex64 9x8:complex64 20x2:complex128
                                 24x2:complex64 14x3:complex128)
work=$(mktemp -d)
run() {  # program tensor: verification seconds, errors, wall seconds
  timed_report "$1" "$2" "'%.4f %.2e %.2e %.3f' % (r['timings']['verification_seconds'], r['reconstruction_error'],
    r['orthogonality_error'], wall)" --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0
}
printf '%-18s %-6s %10s %10s %10s %8s\n' case build verify_s recon ortho wall_s | tee "$out/table.txt"
ab_cases "${cases[@]}"
rm -rf "$work"
exit $status
