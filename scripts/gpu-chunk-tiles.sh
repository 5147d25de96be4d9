#!/usr/bin/env bash
# On a machine with a GPU (issue 14: the chunked pass at about a tenth of the copy bandwidth):
# chunk_pass's tiled form against its register form. First the GPU test cases that run chunk_pass
# (TESTS, a doctest -tc filter), then gpu_large_bench (10 sweeps of a Gaussian float32 tensor made
# in memory, CUDA events) on every DxN given under TENSORDIAG_CHUNK_TILE_BYTES = each of BUDGETS
# (0: the register form; unset: the default tile), ROUNDS rounds alternating the budgets; then,
# with NCU=1, Nsight Compute's duration, DRAM throughput and L1 sectors of one group's launches of
# the first shape under the default and the register form.
# Builds nothing: expects build/ made by scripts/build.sh.
#   usage: [COPY_GBS=2988] [BUDGETS="0 default 98304"] [ROUNDS=2] [NCU=1] bash scripts/gpu-chunk-tiles.sh [OUTDIR] [DxN ...]
set -uo pipefail
default_out=/tmp/chunk-tiles
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(16x3 17x3 19x3 16x4)
copy=${COPY_GBS:-2988}
tests=${TESTS:-"chunk_pass*,*chunked*,*small N with large D*,*Jacobi eigenvalue*,*qubit path*,complex symmetric*,one GPU rank*"}
if [ -n "$tests" ]; then
  ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="$tests" > "$out/gpu_cases.log" 2>&1 || status=1
  tail -3 "$out/gpu_cases.log"
  grep -B3 -A12 "ERROR" "$out/gpu_cases.log" | head -60
fi
budget_run() {  # budget shapes...
  local budget=$1; shift
  if [ "$budget" = default ]; then env -u TENSORDIAG_CHUNK_TILE_BYTES ./build/bench/gpu_large_bench "$copy" "$@"
  else TENSORDIAG_CHUNK_TILE_BYTES=$budget ./build/bench/gpu_large_bench "$copy" "$@"; fi
}
for round in $(seq 1 "${ROUNDS:-2}"); do
  for budget in ${BUDGETS:-0 default 98304}; do
    echo "== round $round, tile bytes $budget" | tee -a "$out/bench.txt"
    budget_run "$budget" "${shapes[@]}" 2>&1 | tee -a "$out/bench.txt" || status=1
  done
done
if [ "${NCU:-0}" = 1 ]; then
  shape=${shapes[0]} order=${shapes[0]%x*} size=${shapes[0]#*x}
  work=$(mktemp -d)
  ./build/tensordiag generate --order "$order" --size "$size" --dtype float32 --seed 1 "$work/t.npy" > /dev/null || status=1
  metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
  metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
  metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
  for budget in default 0; do
    # The register form mixes up to 6 modes a launch in float32; the tiled one what its source says.
    modes=6
    [ "$budget" = 0 ] || modes=$(./build/tensordiag kernels --order "$order" --size "$size" --dtype float32 --kernel chunk_pass |
                                 sed -n 's/^inline constexpr int MAX_MODES = \([0-9]*\);/\1/p')
    chunks=$(( (order + modes - 1) / modes ))
    ( [ "$budget" = 0 ] && export TENSORDIAG_CHUNK_TILE_BYTES=0
      timeout 150 ncu --clock-control none --metrics "$metrics" -k regex:'^chunk_pass$' --launch-skip $(( 2 * chunks )) \
        --launch-count "$chunks" ./build/tensordiag diagonalize "$work/t.npy" --out "$work/o" --backend cuda \
        --max-sweeps 1 --tol 0 --stall-tol 0 --no-verify -q ) > "$out/ncu_${shape}_$budget.txt" 2>&1 || status=1
    echo "== ncu $shape, tile bytes $budget: $chunks launches"
    awk '/chunk_pass/ {n++} /gpu__time_duration|dram__throughput|sectors|requests|warps_active|registers|issue_active|grid_size|block_size/ {
           printf "  [%d] %s %s %s\n", n, $1, $(NF-1), $NF }' "$out/ncu_${shape}_$budget.txt"
    rm -rf "$work/o"
  done
  rm -rf "$work"
fi
exit $status
