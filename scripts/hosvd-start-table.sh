#!/usr/bin/env bash
# The HOSVD start against the identity start (issue 11 item 4): for each case, the planted tensor
# `tensordiag generate --seed 2026`, then `tensordiag diagonalize --init identity|hosvd` with the
# default stop criteria, 3 runs each; prints one markdown row a case and init: sweeps, stop reason,
# off_rel at sweep 0 and at the end, the start's seconds and total_seconds (medians), the engine.
# On a GPU machine, BACKEND=cuda times the device start (cuBLAS/cuSOLVER) of the general GPU engine.
# Expects build/ made by scripts/build.sh; python3 reads the reports.
#   usage: [BACKEND=cpu|cuda] [RUNS=3] bash scripts/hosvd-start-table.sh ["D N noise dtype structure" ...]
set -euo pipefail
cd "$(dirname "$0")/.."
backend=${BACKEND:-cpu}
runs=${RUNS:-3}
cases=("$@")
((${#cases[@]})) || cases=("6 8 0.1 float64 general" "4 16 0.1 float64 general" "8 8 0.1 float32 general"
                           "9 8 0 float32 general" "2 256 0 float64 symmetric" "4 16 0.1 float64 symmetric")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| D x N | dtype | noise | structure | init | engine | sweeps | stop | off_rel at sweep 0 | final off_rel | start s | total s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for case in "${cases[@]}"; do
  read -r order size noise dtype structure <<<"$case"
  tensor="$work/t.npy"
  ./build/tensordiag generate --order "$order" --size "$size" --seed 2026 --noise "$noise" --dtype "$dtype" \
    --structure "$structure" "$tensor"
  for init in identity hosvd; do
    reports=()
    for run in $(seq "$runs"); do
      ./build/tensordiag diagonalize "$tensor" --out "$work/o$run" --backend "$backend" --structure "$structure" \
        --init "$init" -q --no-verify
      reports+=("$work/o$run/report.json")
    done
    python3 - "$order" "$size" "$noise" "$dtype" "$structure" "$init" "${reports[@]}" <<'PY'
import json, statistics, sys
order, size, noise, dtype, structure, init = sys.argv[1:7]
reports = [json.load(open(path)) for path in sys.argv[7:]]
last = reports[-1]
history = last["history"]
start = statistics.median(r.get("init", {"seconds": 0.0})["seconds"] for r in reports)
total = statistics.median(r["timings"]["total_seconds"] for r in reports)
print(f"| {order} x {size} | {dtype} | {noise} | {structure} | {init} | {last['engine']} | {len(history) - 1} | "
      f"{last['stop_reason']} | {history[0]['off_rel']:.3g} | {history[-1]['off_rel']:.3e} | {start:.4f} | {total:.4f} |")
PY
  done
done
