#!/usr/bin/env bash
# On a machine with a GPU: the CLI's core and factors of two builds compared byte for byte (cmp),
# `diagonalize --backend cuda --max-sweeps 6` on `tensordiag generate --seed 11 --noise 0.01`
# tensors of real and complex dtypes, even and odd N. Prints a line a case; exits 1 if any differs
# or fails. COMPARE_CASES="D N dtype [structure];..." replaces the cases (structure: general when
# left out).
#   usage: [COMPARE_CASES=...] bash scripts/gpu-compare-outputs.sh BASE_CLI NEW_CLI
set -uo pipefail
base=$1 new=$2
work=$(mktemp -d)
status=0
IFS=';' read -ra cases <<<"${COMPARE_CASES:-9 8 float32;9 8 complex64;8 8 float64;7 8 complex128;6 16 float32;5 7 float64;4 9 complex64;12 3 float32}"
for c in "${cases[@]}"; do
  set -- $c
  structure=${4:-general}
  input="$work/t_$1_$2_$3_$structure.npy"
  "$new" generate --order "$1" --size "$2" --dtype "$3" --structure "$structure" --seed 11 --noise 0.01 "$input" >/dev/null
  for build in base new; do
    cli=$new
    [ $build = base ] && cli=$base
    "$cli" diagonalize "$input" --out "$work/out_$build" --backend cuda --structure "$structure" --max-sweeps 6 >/dev/null 2>"$work/err_$build" ||
      { echo "  $c: $build failed: $(head -1 "$work/err_$build")"; status=1; }
  done
  same=yes
  for f in "$work"/out_base/*.npy; do cmp -s "$f" "$work/out_new/$(basename "$f")" || same=no; done
  echo "  D=$1 N=$2 $3 $structure: core and factors bit for bit: $same"
  [ $same = yes ] || status=1
  rm -rf "$work"/out_base "$work"/out_new
done
rm -rf "$work"
exit $status
