#!/usr/bin/env bash
# On a machine with a GPU (issue 14: why one GPU rank's chunked sweeps run 14-17% over the one-GPU
# engine's at N = 4, D = 16 and N = 3, D = 19): gpu_ranks_bench --ranks 1 on SHAPE (default 16x3,
# a chunked shape of 172 MB), then the same under Nsight Compute with the duration of every kernel
# of the angles, the passes and the figures, summed by kernel for the one-GPU run (the launches
# before the first chunk_pass_slab) and for the rank's. Builds nothing: expects build/ made by
# scripts/build.sh.
#   usage: bash scripts/gpu-slab-pass-profile.sh [OUTDIR] [SHAPE]
set -uo pipefail
default_out=/tmp/slab-pass-profile
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shape=${1:-16x3}
timeout 100 ./build/bench/gpu_ranks_bench --ranks 1 "$shape" > "$out/bench.txt" 2>&1 || status=1
cat "$out/bench.txt"
timeout 150 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  -k regex:'chunk_pass|pivot_|off_norm|group_factors' ./build/bench/gpu_ranks_bench --ranks 1 "$shape" \
  > "$out/ncu.csv" 2>&1 || status=1
python3 - "$out/ncu.csv" <<'PY' || status=1
import csv, collections, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[0].isdigit()]
first_slab = next((i for i, r in enumerate(rows) if r[4] == "chunk_pass_slab"), len(rows))
for label, part in (("one GPU", rows[:first_slab]), ("one GPU rank", rows[first_slab:])):
    sums = collections.defaultdict(lambda: [0, 0.0])
    for r in part:
        sums[r[4]][0] += 1
        sums[r[4]][1] += float(r[-1].replace(",", "")) / 1e6
    print("%s: %s" % (label, ", ".join("%s %d x, %.1f ms" % (k, n, t) for k, (n, t) in sorted(sums.items()))))
PY
exit $status
