#!/usr/bin/env bash
# On a machine with two GPUs (issue 14: N = 3 on two ranks, one of them holding the unpaired row
# alone): the GPU cases of two ranks with odd N, then N = 3 float32 tensors of D = 17 and 18
# (`generate --seed 1 --noise 1e-3`), 10 sweeps fixed without verification, on one GPU (the general
# engine), on one GPU rank (`--devices 0`) and on two (`--devices 0,1`): the sweeps' seconds, the
# command's wall seconds and the bytes the ranks exchange a sweep.
# Builds nothing: expects build/ made by scripts/build.sh.
#   usage: bash scripts/gpu-three-ranks.sh [OUTDIR]
set -uo pipefail
default_out=/tmp/three-ranks
source "$(dirname "$0")/gpu-start.sh"
source "$(dirname "$0")/gpu-ab-cases.sh"
export NCCL_NVLS_ENABLE=0
started=$(date +%s)
timeout 300 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*odd N*" > "$out/gpu_cases.log" 2>&1 || status=1
echo "odd N cases: $(( $(date +%s) - started )) s"; tail -3 "$out/gpu_cases.log"
work=$(mktemp -d)
report="'%-16s %-8s sweeps %.3f s  wall %.2f s  bytes/sweep %s' % (r['engine'], (r.get('distributed') or {}).get('ranks', 1),
  r['timings']['sweeps_seconds'], wall, (r.get('distributed') or {}).get('bytes_per_sweep', 0))"
for order in 17 18; do
  ./build/tensordiag generate --order "$order" --size 3 --dtype float32 --seed 1 --noise 1e-3 "$work/t.npy" > /dev/null ||
    { status=1; continue; }
  for where in "--backend cuda" "--devices 0" "--devices 0,1"; do
    for round in 1 2; do  # the first compiles
      line=$(timed_report ./build/tensordiag "$work/t.npy" "$report" $where --max-sweeps 10 --tol 0 --stall-tol 0 \
        --no-verify) || { status=1; line=failed; }
      [ "$round" -eq 2 ] && printf 'D = %s  %-14s %s\n' "$order" "$where" "$line" | tee -a "$out/table.txt"
    done
  done
done
rm -rf "$work"
exit $status
