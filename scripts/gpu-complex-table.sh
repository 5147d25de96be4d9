#!/usr/bin/env bash
# One build's gpu_bench complex table (float32, float64, complex64, complex128 on the round robin;
# float32 also with its default schedule) on a fresh kernel cache, appended to OUTDIR/bench.txt with
# the result lines echoed; the JSON to OUTDIR/complex_NAME.json. For the scripts that compare builds
# (gpu-mix-once.sh, gpu-warp-exchange.sh).
#   usage: bash scripts/gpu-complex-table.sh OUTDIR NAME GPU_BENCH SHAPES SECONDS
set -uo pipefail
out=$1 name=$2 bench=$3 shapes=$4 seconds=$5
echo "== $name: $bench" | tee -a "$out/bench.txt"
TENSORDIAG_CACHE_DIR=$(mktemp -d) timeout "$seconds" "$bench" "$out/complex_$name.json" --complex --only "$shapes" \
  --repeats 3 2>&1 | tee -a "$out/bench.txt" | grep -E "^ *[0-9]+ +[0-9]+ "
