#!/usr/bin/env bash
# On a machine with a GPU (issue 11, item 3: complex symmetric tensors, one unitary U): the GPU
# suite's complex and symmetric cases (SUITE=all: the whole GPU suite; SUITE=none: no cases), the
# Python suite on the GPU (PYTHON=0: not), then 10 sweeps of planted complex64 symmetric tensors through the command (fixed sweeps, --backend cuda) with structure
# symmetric and, on the same file, structure general (a U_n a mode), and the CPU's symmetric run
# where it takes seconds: report.json's sweeps_seconds. Builds nothing: expects build/ made by
# scripts/build.sh (and build/device-libs for Python).
#   usage: bash scripts/gpu-complex-symmetric.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/complex-symmetric
source "$(dirname "$0")/gpu-start.sh"
started=$(date +%s)
cases="*complex*,*symmetric*"; limit=200
[ "${SUITE:-}" = all ] && { cases="*"; limit=400; }
export NCCL_NVLS_ENABLE=0
if [ "${SUITE:-}" != none ]; then
  timeout $limit ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="$cases" > "$out/gpu_cases.log" 2>&1 || status=1
  echo "GPU cases ($cases): $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_cases.log"
fi
if [ "${PYTHON:-1}" != 0 ]; then
  started=$(date +%s)
  timeout 150 bash scripts/gpu-python.sh > "$out/python.log" 2>&1 || status=1
  echo "Python suite: $(( $(date +%s) - started )) s"; tail -2 "$out/python.log"
fi
work=$(mktemp -d)
sweeps() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('%-14s %-9.4f %s' % (r['engine'], 1e3*r['timings']['sweeps_seconds'], r['history'][-1]['off_rel']))" "$1"; }
echo "D  N     structure  backend  engine         ms_10_sweeps off_rel_after" | tee "$out/bench.txt"
for shape in 2x256 2x1024 3x32 3x64 3x128; do
  order=${shape%x*}; size=${shape#*x}
  timeout 60 ./build/tensordiag generate --order "$order" --size "$size" --seed 5 --dtype complex64 --structure symmetric "$work/t.npy" || { status=1; continue; }
  runs=("symmetric cuda" "general cuda")
  [ "$order" -eq 3 ] && [ "$size" -le 64 ] && runs+=("symmetric cpu")
  [ "$order" -eq 2 ] && runs=("symmetric cuda")  # a general matrix is an SVD's
  [ "$order" -eq 2 ] && [ "$size" -le 256 ] && runs+=("symmetric cpu")
  for run in "${runs[@]}"; do
    structure=${run% *}; backend=${run#* }
    for repeat in 1 2; do  # the first compiles the kernels; the second is the one reported
      rm -rf "$work/r"
      timeout 120 ./build/tensordiag diagonalize "$work/t.npy" --out "$work/r" --structure "$structure" --backend "$backend" \
        --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify -q > /dev/null 2>> "$out/bench_errors.txt" ||
        { status=1; echo "failed: $shape $run"; }
    done
    [ -f "$work/r/report.json" ] || continue
    printf "%-2s %-5s %-10s %-8s %s\n" "$order" "$size" "$structure" "$backend" "$(sweeps "$work/r/report.json")" | tee -a "$out/bench.txt"
  done
done
exit $status
