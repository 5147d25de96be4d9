#!/usr/bin/env bash
# On a machine with a GPU (issue 14: one GPU rank ran 1.4x one GPU on chunked N = 3 shapes): the
# GPU cases of chunk_pass and of one GPU rank, then `gpu_ranks_bench --ranks 1` (one GPU, then one
# GPU rank of the distributed engine, 10 sweeps, GPU time) of build/base/ (the programs before the
# change; skipped if absent) and build/ alternated ROUNDS times, then Nsight Compute's duration of
# every launch of one sweep of the first shape on one GPU and on one GPU rank (`--devices 0`),
# summed by kernel.
# Builds nothing: expects build/ made by scripts/build.sh.
#   usage: [ROUNDS=2] [NCU=1] bash scripts/gpu-rank-gap.sh [OUTDIR] [DxN ...]
set -uo pipefail
default_out=/tmp/rank-gap
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(16x3 17x3)
./build/tests/tensordiag_gpu_tests -ts=gpu -tc="chunk_pass*,one GPU rank*" > "$out/gpu_cases.log" 2>&1 || status=1
tail -3 "$out/gpu_cases.log"
grep -B3 -A12 "ERROR" "$out/gpu_cases.log" | head -60
for round in $(seq 1 "${ROUNDS:-2}"); do
  for build in base .; do
    program=./build/$build/gpu_ranks_bench
    [ "$build" = . ] && program=./build/bench/gpu_ranks_bench
    [ -x "$program" ] || continue
    echo "== round $round, $program" | tee -a "$out/bench.txt"
    "$program" --ranks 1 "${shapes[@]}" 2>&1 | tee -a "$out/bench.txt" || status=1
  done
done
if [ "${NCU:-1}" = 1 ]; then
  shape=${shapes[0]} order=${shapes[0]%x*} size=${shapes[0]#*x}
  work=$(mktemp -d)
  ./build/tensordiag generate --order "$order" --size "$size" --dtype float32 --seed 1 "$work/t.npy" > /dev/null || status=1
  for path in "--backend cuda" "--devices 0"; do
    name=$(printf %s "$path" | tr -d - | tr " " _)  # backend_cuda, devices_0
    # One sweep after the compile (a warm cache), every launch timed alone.
    ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" $path --max-sweeps 1 --tol 0 --stall-tol 0 --no-verify -q > /dev/null 2>&1
    rm -rf "$work/o"
    timeout 200 ncu --clock-control none --csv --metrics gpu__time_duration.sum ./build/tensordiag diagonalize "$work/t.npy" \
      --out "$work/o" $path --max-sweeps 1 --tol 0 --stall-tol 0 --no-verify -q > "$out/ncu_${shape}_$name.csv" 2>&1 || status=1
    rm -rf "$work/o"
    echo "== ncu $shape $path: us by kernel (launches)"
    python3 - "$out/ncu_${shape}_$name.csv" <<'EOF'
import csv, sys, collections
total, count = collections.Counter(), collections.Counter()
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
for r in csv.DictReader(rows):
    if r.get("Metric Name") != "gpu__time_duration.sum": continue
    name = r["Kernel Name"].split("(")[0]
    value = float(r["Metric Value"].replace(",", ""))
    scale = {"ns": 1e-3, "us": 1, "usecond": 1, "nsecond": 1e-3, "ms": 1e3, "msecond": 1e3}.get(r["Metric Unit"], 1)
    total[name] += value * scale; count[name] += 1
for name, us in total.most_common(): print(f"  {name:40s} {us:10.1f} us ({count[name]})")
print(f"  {'all':40s} {sum(total.values()):10.1f} us")
EOF
  done
  rm -rf "$work"
fi
exit $status
