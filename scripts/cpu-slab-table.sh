#!/usr/bin/env bash
# The CPU engine's sweeps, one binary against another, interleaved: for each shape, 3 runs of each
# (`tensordiag diagonalize --backend cpu`, sweeps forced, no verification), the sum of report.json's
# per-sweep seconds, then every output file of the last two runs compared with cmp. Prints one
# markdown row a shape: | D x N | dtype | sweeps | OLD's seconds | NEW's seconds | outputs |
#   usage: bash scripts/cpu-slab-table.sh OLD_TENSORDIAG NEW_TENSORDIAG
set -uo pipefail
old=$1
new=$2
work=$(mktemp -d)
seconds() { python3 -c "import json; r = json.load(open('$1/report.json')); print('%.4f' % sum(h['seconds'] for h in r['history'][1:]))"; }
for spec in "5 16 float32 10" "6 16 float32 10" "4 32 float32 10" "5 32 float32 3" "4 64 float32 3" \
            "3 64 float32 10" "5 8 float64 10" "7 8 float64 10" "5 16 float64 10" "6 16 float64 3" \
            "7 8 float32 10" "9 8 float32 3"; do
  set -- $spec
  "$new" generate --order "$1" --size "$2" --seed 5 --dtype "$3" "$work/x.npy" || exit 1
  new_s=""
  old_s=""
  for i in 1 2 3; do
    "$new" diagonalize "$work/x.npy" --out "$work/new" --backend cpu --max-sweeps "$4" --tol 0 --stall-tol 0 -q --no-verify
    new_s="$new_s $(seconds "$work/new")"
    "$old" diagonalize "$work/x.npy" --out "$work/old" --backend cpu --max-sweeps "$4" --tol 0 --stall-tol 0 -q --no-verify
    old_s="$old_s $(seconds "$work/old")"
  done
  same=$(for f in "$work"/old/*.npy; do cmp -s "$f" "$work/new/$(basename "$f")" || echo differ; done)
  echo "| $1 x $2 | $3 | $4 | $old_s | $new_s | ${same:-identical} |"
done
