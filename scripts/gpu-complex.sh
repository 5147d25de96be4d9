#!/usr/bin/env bash
# On a machine with a GPU: complex tensors on the GPU engine (issue 11, item 3) in one call -- the
# complex GPU tests, the command with a complex64 file on --backend cuda and with --eta (the pivot
# check: Lambda skew-Hermitian, its norm by the device Lanczos on its real embedding), a table of the pivot check's
# runs (complex128 planted with noise 0.3, eta 1e-3, 10 sweeps: the GPU checked and unchecked beside
# the CPU complex engine checked; report.json's sweeps seconds), then gpu_bench's complex table
# (complex64 / complex128 beside float32 / float64, 10 sweeps; SKIP_BENCH=1 leaves it out).
# Expects build/ made by scripts/build.sh (possibly elsewhere: /work/main is linked to this
# checkout for the tests' paths).
#   usage: bash scripts/gpu-complex.sh [OUTDIR] [gpu_bench options, e.g. --repeats 3]
set -uo pipefail
default_out=gpu-complex-out
source "$(dirname "$0")/gpu-start.sh"
bench_options=("$@")
./build/tests/tensordiag_gpu_tests -tc="*complex*" 2>&1 | tee "$out/complex_gpu_tests.log" || status=1

work=$(mktemp -d)
{
  ./build/tensordiag generate --order 5 --size 8 --seed 1 --dtype complex64 "$work/z.npy" &&
    ./build/tensordiag diagonalize "$work/z.npy" --out "$work/gpu" --backend cuda &&
    grep -m4 -E '"engine"|"device"|"stop_reason"|"dtype"' "$work/gpu/report.json" &&
    ./build/tensordiag diagonalize "$work/z.npy" --out "$work/checked" --eta 0.001 &&
    grep -m1 -E '"engine"' "$work/checked/report.json"
} 2>&1 | tee "$out/cli_complex_on_gpu.log" || status=1

# The pivot check's runs: sweeps seconds and the engine of each.
seconds() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['engine'], r['sweeps'], '%.4f' % (1e3 * r['timings']['sweeps_seconds']))" "$1"; }
# run NAME [options]: 10 sweeps of $work/c.npy into $work/NAME, then its engine, sweeps and ms.
run() { ./build/tensordiag diagonalize "$work/c.npy" --out "$work/$1" --max-sweeps 10 --tol 0 --stall-tol 0 -q "${@:2}" && seconds "$work/$1/report.json"; }
{
  echo "D N | gpu checked: engine sweeps ms | gpu unchecked: engine sweeps ms | cpu checked: engine sweeps ms"
  for shape in "3 16" "3 32" "3 64" "3 128" "4 16" "5 8" "6 8"; do
    set -- $shape
    ./build/tensordiag generate --order "$1" --size "$2" --seed 5 --noise 0.3 --dtype complex128 "$work/c.npy" >/dev/null || status=1
    echo "$1 $2 | $(run gc --backend cuda --eta 0.001) | $(run gu --backend cuda) | $(run cc --backend cpu --eta 0.001)"
  done
} 2>&1 | tee "$out/pivot_check_complex.txt" || status=1

[ -n "${SKIP_BENCH:-}" ] || ./build/bench/gpu_bench "$out/gpu_bench_complex.json" --complex "${bench_options[@]}" 2>&1 | tee "$out/gpu_bench_complex.txt" || status=1
exit $status
