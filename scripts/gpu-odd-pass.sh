#!/usr/bin/env bash
# On a machine with a GPU: the general engine's pass at odd N, group_pass against chunk_pass
# (TENSORDIAG_CHUNKED_PASS=0 and =1), and what the engine takes unset. group_pass's tiles at odd N
# hold (1 + 1/N)^(D - 1) times the tensor's entries in slots (the unpaired index), chunk_pass reads
# and writes the tensor once a run of modes. For each DxN:dtype case a `generate --seed 1 --noise
# 1e-3` tensor through `diagonalize --backend cuda --max-sweeps 10 --tol 0 --stall-tol 0
# --no-verify` after one run each that compiles, ROUNDS rounds alternating the three settings;
# milliseconds a sweep (report.json's sweeps_seconds over its sweeps) and the pass it took.
# Builds nothing: expects build/ made by scripts/build.sh.
#   usage: [ROUNDS=2] bash scripts/gpu-odd-pass.sh [OUTDIR] [DxN:dtype ...]
set -uo pipefail
default_out=/tmp/odd-pass
source "$(dirname "$0")/gpu-start.sh"
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(8x3:float32 10x3:float32 11x3:float32 12x3:float32 13x3:float32
                                 14x3:float32 15x3:float32 6x5:float32 7x5:float32 8x5:float32
                                 9x5:float32 5x7:float32 6x7:float32 7x7:float32 4x9:float32
                                 5x9:float32 6x9:float32 4x15:float32 5x15:float32 10x3:float64 13x3:float64
                                 14x3:float64 7x5:float64 10x3:complex64 12x3:complex64 13x3:complex64
                                 6x5:complex128 7x5:complex128 5x7:complex64)
work=$(mktemp -d)
per_sweep() {  # setting tensor: ms a sweep and the pass kernel
  rm -rf "$work/o"
  local setting=()
  [ "$1" != unset ] && setting=(env "TENSORDIAG_CHUNKED_PASS=$1")
  "${setting[@]}" ./build/tensordiag diagonalize "$2" --out "$work/o" --backend cuda --max-sweeps 10 --tol 0 \
    --stall-tol 0 --no-verify -q > /dev/null 2>&1 || return 1
  python3 -c "import json,sys; r=json.load(open(sys.argv[1]))
passes = [k for k in r['kernels'] if k.endswith('_pass')] or ['-']
print('%.4f' % (1e3 * r['timings']['sweeps_seconds'] / r['sweeps']), passes[0])" "$work/o/report.json"
}
printf '%-16s %-6s %10s  %s\n' case pass ms_sweep kernel | tee "$out/table.txt"
for c in "${cases[@]}"; do
  shape=${c%%:*} dtype=${c#*:} order=${shape%x*} size=${shape#*x}
  ./build/tensordiag generate --order "$order" --size "$size" --dtype "$dtype" --seed 1 --noise 1e-3 "$work/t.npy" \
    > /dev/null || { status=1; continue; }
  for setting in 0 1 unset; do per_sweep "$setting" "$work/t.npy" > /dev/null || status=1; done
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for setting in 0 1 unset; do
      printf '%-16s %-6s %s\n' "$c" "$setting" "$(per_sweep "$setting" "$work/t.npy" || echo 'failed -')" \
        | tee -a "$out/table.txt"
    done
  done
done
rm -rf "$work"
exit $status
