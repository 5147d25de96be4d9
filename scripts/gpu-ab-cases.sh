# Sourced by the scripts/gpu-*.sh that time an earlier build against this one (after gpu-start.sh,
# with `work` a scratch folder and a function `run PROGRAM TENSOR` that prints one line of figures,
# usually through timed_report below):
# ab_cases DxN:dtype ... writes each case's `generate --seed 1 --noise 1e-3` tensor, runs both
# builds once (compiles), then ROUNDS rounds (default 2) alternating build/base/tensordiag and
# build/tensordiag, each line "case build figures" appended to $out/table.txt; failures set status=1.
ab_cases() {
  local c shape dtype order size program round name
  for c in "$@"; do
    shape=${c%%:*} dtype=${c#*:} order=${shape%x*} size=${shape#*x}
    ./build/tensordiag generate --order "$order" --size "$size" --dtype "$dtype" --seed 1 --noise 1e-3 "$work/t.npy" \
      > /dev/null || { status=1; continue; }
    for program in build/base/tensordiag build/tensordiag; do run "./$program" "$work/t.npy" > /dev/null || status=1; done
    for round in $(seq 1 "${ROUNDS:-2}"); do
      for program in build/base/tensordiag build/tensordiag; do
        name=${program%/tensordiag}
        printf '%-18s %-6s %s\n' "$c" "${name#build/}" "$(run "./$program" "$work/t.npy" || echo failed)" \
          | tee -a "$out/table.txt"
      done
    done
  done
}

# timed_report PROGRAM TENSOR EXPRESSION [OPTION ...]: runs `PROGRAM diagonalize TENSOR --out $work/o -q
# OPTION ...` and prints the Python EXPRESSION of r (its report.json) and wall (the command's
# seconds); returns 1 when the command fails.
timed_report() {
  local program=$1 tensor=$2 expression=$3 start end
  shift 3
  rm -rf "$work/o"
  start=$(date +%s.%N)
  "$program" diagonalize "$tensor" --out "$work/o" -q "$@" > /dev/null 2>&1 || return 1
  end=$(date +%s.%N)
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); wall=float(sys.argv[3]) - float(sys.argv[2])
print($expression)" "$work/o/report.json" "$start" "$end"
}
