#!/usr/bin/env bash
# On a machine with a GPU (issue 11, item 3: complex symmetric tensors, one unitary U): the GPU
# suite's complex and symmetric cases (SUITE=all: the whole GPU suite; SUITE=none: no cases), the
# Python suite on the GPU (PYTHON=0: not), then 10 sweeps of planted complex64 symmetric tensors through the command (fixed sweeps, --backend cuda) with structure
# symmetric and, on the same file, structure general (a U_n a mode), and the CPU's symmetric run
# where it takes seconds (order 3 up to N = 64, every shape from order 4): report.json's sweeps_seconds (the median of REPEATS runs, default 1,
# after one that compiles the kernels). BASE=DIR: the GPU rows run DIR/tensordiag too (a build of
# another commit), alternating with build/'s, for a before/after on one machine. SHAPES: the DxN
# list (default 2x256 2x1024 3x32 3x64 3x128). Builds nothing: expects build/ made by
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
# The median of the `ms` of report.json files, and the last one's engine and off_rel.
sweeps() { python3 -c "
import json, statistics, sys
rs = [json.load(open(f)) for f in sys.argv[1:]]
print('%-14s %-9.4f %s' % (rs[-1]['engine'], statistics.median(1e3 * r['timings']['sweeps_seconds'] for r in rs),
                          rs[-1]['history'][-1]['off_rel']))" "$@"; }
binaries=(build)
[ -n "${BASE:-}" ] && binaries+=("$BASE")
echo "D  N     structure  backend  binary       engine         ms_10_sweeps off_rel_after" | tee "$out/bench.txt"
for shape in ${SHAPES:-2x256 2x1024 3x32 3x64 3x128}; do
  order=${shape%x*}; size=${shape#*x}
  timeout 60 ./build/tensordiag generate --order "$order" --size "$size" --seed 5 --dtype complex64 --structure symmetric "$work/t.npy" || { status=1; continue; }
  runs=("symmetric cuda" "general cuda")
  [ "$order" -eq 3 ] && [ "$size" -le 64 ] && [ -z "${BASE:-}" ] && runs+=("symmetric cpu")
  [ "$order" -ge 4 ] && [ -z "${BASE:-}" ] && runs+=("symmetric cpu")  # the searched step: the CPU ran these alone before
  [ "$order" -eq 2 ] && runs=("symmetric cuda")  # a general matrix is an SVD's
  [ "$order" -eq 2 ] && [ "$size" -le 256 ] && [ -z "${BASE:-}" ] && runs+=("symmetric cpu")
  for run in "${runs[@]}"; do
    structure=${run% *}; backend=${run#* }
    for repeat in $(seq 0 "${REPEATS:-1}"); do  # run 0 compiles the kernels; the others are timed
      for binary in "${binaries[@]}"; do
        tag=$(basename "$binary")
        rm -rf "$work/r_$tag"
        timeout 120 "./$binary/tensordiag" diagonalize "$work/t.npy" --out "$work/r_$tag" --structure "$structure" \
          --backend "$backend" --max-sweeps 10 --tol 0 --stall-tol 0 --no-verify -q > /dev/null 2>> "$out/bench_errors.txt" ||
          { status=1; echo "failed: $shape $run $binary"; }
        [ "$repeat" -gt 0 ] && [ -f "$work/r_$tag/report.json" ] && cp "$work/r_$tag/report.json" "$work/report_${tag}_$repeat.json"
      done
    done
    for binary in "${binaries[@]}"; do
      tag=$(basename "$binary")
      ls "$work"/report_"${tag}"_*.json > /dev/null 2>&1 || continue
      printf "%-2s %-5s %-10s %-8s %-12s %s\n" "$order" "$size" "$structure" "$backend" "$tag" \
        "$(sweeps "$work"/report_"${tag}"_*.json)" | tee -a "$out/bench.txt"
      rm -f "$work"/report_"${tag}"_*.json
    done
  done
done
exit $status
