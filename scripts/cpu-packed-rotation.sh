#!/usr/bin/env bash
# The CPU packed engine's sweeps, two builds side by side (issue 11, packed storage): for each shape
# a planted symmetric float64 tensor in packed storage (generate --seed 3 --structure symmetric
# --noise 0.01 --packed), 10 sweeps forced, the median of 3 runs of each build alternated, as ms a
# sweep from report.json; the outputs of the two builds compared with cmp.
#   usage: bash scripts/cpu-packed-rotation.sh BASE_BINARY NEW_BINARY [DxN ...]
set -euo pipefail
base=${1:?usage: cpu-packed-rotation.sh BASE NEW [DxN ...]}
new=${2:?usage: cpu-packed-rotation.sh BASE NEW [DxN ...]}
shift 2
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(3x16 3x32 4x8 4x16 5x8 5x12 5x16 6x8 6x16 8x8 9x5)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ms_a_sweep() {  # binary input order out
  rm -rf "$4"
  "$1" diagonalize "$2" --packed "$3" --out "$4" --backend cpu --max-sweeps 10 --tol 0 --stall-tol 0 --quiet
  python3 -c "import json,sys; r=json.load(open('$4/report.json')); print(1e3*r['timings']['sweeps_seconds']/r['sweeps'])"
}
median() { printf "%s\n" "$@" | sort -g | sed -n 2p; }
printf "| D x N | entries | base ms a sweep | new ms a sweep | speed-up | same bytes |\n|---|---|---|---|---|---|\n"
for shape in "${shapes[@]}"; do
  order=${shape%x*}; size=${shape#*x}
  "$new" generate --order "$order" --size "$size" --seed 3 --structure symmetric --noise 0.01 --packed \
    --dtype float64 "$work/t.npy" > /dev/null
  b=(); n=()
  for _ in 1 2 3; do
    b+=("$(ms_a_sweep "$base" "$work/t.npy" "$order" "$work/base")")
    n+=("$(ms_a_sweep "$new" "$work/t.npy" "$order" "$work/new")")
  done
  same=no
  cmp -s "$work/base/core.npy" "$work/new/core.npy" && cmp -s "$work/base/factor_1.npy" "$work/new/factor_1.npy" && same=yes
  entries=$(python3 -c "import math; print(math.comb($size + $order - 1, $order))")
  mb=$(median "${b[@]}"); mn=$(median "${n[@]}")
  printf "| %s | %s | %.3f | %.3f | %.2f | %s |\n" "$shape" "$entries" "$mb" "$mn" "$(python3 -c "print($mb / $mn)")" "$same"
done
