#!/usr/bin/env bash
# On any machine (no GPU): the CPU engines' group step from pivot_corners.hpp (the four entries a
# mode reads, from trees over the tensor) against a build of the copied-and-rotated subtensor
# (BASE, default build/base/tensordiag). For each DxN:dtype (default the N = 2 cases and two
# controls), `generate --seed 1 --noise 1e-3`, 10 sweeps fixed without verification on the CPU, the
# two builds alternated ROUNDS times (default 2): report.json's sweeps seconds, and whether the cores
# are byte for byte the same.
#   usage: bash scripts/cpu-pivot-corners.sh [DxN:dtype ...]
set -uo pipefail
cd "$(dirname "$0")/.."
base=${BASE:-build/base/tensordiag}
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(20x2:float64 22x2:float64 14x2:complex128 18x2:complex128 20x2:complex128
                                 6x8:float64 12x3:float64)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for c in "${cases[@]}"; do
  shape=${c%%:*} dtype=${c#*:} order=${shape%x*} size=${shape#*x}
  ./build/tensordiag generate --order "$order" --size "$size" --dtype "$dtype" --seed 1 --noise 1e-3 "$work/t.npy" \
    > /dev/null || { status=1; continue; }
  line="$c"
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for program in "$base" build/tensordiag; do
      rm -rf "$work/o"
      "$program" diagonalize "$work/t.npy" --out "$work/o" --backend cpu --max-sweeps 10 --tol 0 --stall-tol 0 \
        --no-verify -q || { status=1; continue; }
      seconds=$(python3 -c "import json; print('%.3f' % json.load(open('$work/o/report.json'))['timings']['sweeps_seconds'])")
      line="$line  $( [ "$program" = "$base" ] && echo base || echo new ) $seconds"
      cp "$work/o/core.npy" "$work/core_$( [ "$program" = "$base" ] && echo base || echo new ).npy"
    done
  done
  cmp -s "$work/core_base.npy" "$work/core_new.npy" && line="$line  core: same bytes" || line="$line  core: differs"
  echo "$line"
done
exit $status
