#!/usr/bin/env bash
# On a machine with a GPU (issue 15 item 2, the checked sweep's gathers): the GPU cases of the
# pivot check, then gpu_bench's checked and unchecked runs of D = 9 N = 8 and D = 3 N = 128
# (float32, 10 sweeps, eta = 0.00125, median of 3) for build/ and, where BASE=DIR is given, for
# DIR/bench/gpu_bench (a build of another commit), alternated ROUNDS times (default 2); then Nsight
# Compute's duration of each checked kernel of two groups of D = 9 N = 8 (build/ only). Builds
# nothing: expects build/ made by scripts/build.sh.
#   usage: BASE=build/base bash scripts/gpu-pivot-gather.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/pivot-gather
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
git log -1 --format='%H %s' 2>/dev/null | cut -c1-120 > "$out/commit.txt"
started=$(date +%s)
timeout 200 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*pivot check*" > "$out/gpu_cases.log" 2>&1 || status=1
echo "pivot check cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_cases.log"
binaries=(build)
[ -n "${BASE:-}" ] && binaries+=("$BASE")
for round in $(seq 1 "${ROUNDS:-2}"); do
  for binary in "${binaries[@]}"; do
    tag=$(basename "$binary")
    echo "== round $round, $binary"
    timeout 150 "./$binary/bench/gpu_bench" --only 9x8,3x128 --repeats 3 > "$out/bench_${tag}_$round.txt" 2>&1 || status=1
    grep -E "^(9|3) " "$out/bench_${tag}_$round.txt"
  done
done
work=$(mktemp -d)
./build/tensordiag generate --order 9 --size 8 --dtype float32 --seed 2026 "$work/t.npy" &&
  timeout 120 ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-skip 300 --launch-count 56 \
    ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" --backend cuda --eta 0.00125 --max-sweeps 3 \
    --tol 0 --stall-tol 0 --no-verify -q > "$out/ncu_9x8.csv" 2>&1 || status=1
python3 - "$out/ncu_9x8.csv" <<'PY' || status=1
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[0].isdigit()]
print("kernel durations (us), D = 9 N = 8, in launch order:")
print(" ".join("%s=%.1f" % (r[4].replace("pivot_check_", "").replace("checked_angles", "angles"),
                            float(r[-1].replace(",", "")) / 1e3) for r in rows))
PY
rm -rf "$work"
exit $status
