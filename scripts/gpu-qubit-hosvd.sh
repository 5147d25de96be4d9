#!/usr/bin/env bash
# On a machine with a GPU: the HOSVD start (--init hosvd) of N = 2 tensors on the qubit path, which
# now computes it on the device, against the build before it (build/base/tensordiag: the host's
# start for float32, the general engine's device start for complex64). Runs the qubit and HOSVD GPU
# tests, then for each DxN:dtype case (gpu-ab-cases.sh) prints where the start ran and its seconds,
# the sweeps and milliseconds a sweep, the whole verified command's wall seconds and the
# reconstruction error; `plain:` cases run without the start.
# Builds nothing: expects build/ made by scripts/build.sh and build/base/tensordiag.
#   usage: bash scripts/gpu-qubit-hosvd.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/qubit-hosvd
source "$(dirname "$0")/gpu-start.sh"
source "$(dirname "$0")/gpu-ab-cases.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(24x2:float32 28x2:float32 24x2:complex64 28x2:complex64)
./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*qubit*,*hosvd*" 2>&1 | tee "$out/tests.log" | tail -3
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
work=$(mktemp -d)
init=hosvd
run() {  # program tensor: where the start ran and its seconds, sweeps, ms a sweep, engine, wall, error
  timed_report "$1" "$2" "'init %-6s %6.3f s  %2d sweeps %7.3f ms/sweep  %-10s wall %.2f s  rec %.2e' % (
    (r.get('init') or {}).get('computed_on', '-'), (r.get('init') or {}).get('seconds', 0.0), r['sweeps'],
    1e3 * r['timings']['sweeps_seconds'] / r['sweeps'], r['engine'], wall, r['reconstruction_error'])" \
    --backend cuda --init "$init" --max-sweeps 10
}
ROUNDS=${ROUNDS:-1} ab_cases "${cases[@]}"
init=identity
echo "plain:" | tee -a "$out/table.txt"
ROUNDS=${ROUNDS:-1} ab_cases 28x2:complex64
rm -rf "$work"
exit $status
