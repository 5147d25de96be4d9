#!/usr/bin/env bash
# On a machine with four GPUs (issues 10 and 14): in three parts, each within one device call.
#   part1: the GPU ranks' tests (two, three and four ranks: the slab engine and the N = 2 path),
#          the CLI on 2 and 4 GPUs (--devices, and mpirun with a GPU a process through the Open
#          MPI scripts/pack-mpi.sh carried in build/device-mpi, and a rank killed mid-run), each
#          run's outputs checked against its input with numpy.
#   part2: strong scaling of N = 8, D = 11 and N = 16, D = 8 (float32, 10 sweeps) on 1, 2 and 4
#          GPUs (bench/gpu_ranks_bench.cpp); N = 8, D = 12 (275 GB) on 4 GPUs, each rank making its
#          own rows.
#   part3: N = 2 (bench/gpu_qubit_ranks_bench.cpp): D = 33 on 1, 2, 4 GPUs (strong), then 34 on
#          2 and 35 on 4 (weak: 34 GB a GPU).
# Builds nothing: expects build/ made by scripts/build.sh. NVLink multicast stays off.
#   usage: bash scripts/gpu-scaling.sh OUTDIR part1|part2|part3
set -uo pipefail
default_out=/tmp/scaling
part=${2:?usage: bash scripts/gpu-scaling.sh OUTDIR part1|part2|part3}
source "$(dirname "$0")/gpu-start.sh"
export NCCL_NVLS_ENABLE=0 NCCL_DEBUG=${NCCL_DEBUG:-WARN} TENSORDIAG_COLLECTIVE_TIMEOUT=${TENSORDIAG_COLLECTIVE_TIMEOUT:-120}
nvidia-smi topo -m > "$out/topology.txt" 2>&1
free -g > "$out/host_memory.txt"

# The outputs of DIR against IN.npy (reconstruction, orthogonality), one line: LABEL and the figures.
check_outputs() { python3 scripts/check-distributed-outputs.py "$@"; }

if [ "$part" = part1 ]; then
  timeout 300 ./build/tests/tensordiag_gpu_tests -ts=gpu -tc="*GPU rank*,*N = 2 tensor*" > "$out/rank_tests.log" 2>&1 ||
    status=1
  tail -4 "$out/rank_tests.log"
  work=$(mktemp -d)
  ./build/tensordiag generate --order 6 --size 8 --seed 7 --noise 0.1 --dtype float64 "$work/a.npy" >/dev/null
  ./build/tensordiag generate --order 20 --size 2 --seed 8 --noise 0.1 --dtype float64 "$work/b.npy" >/dev/null
  for input in a b; do
    for devices in 0,1 0,1,2,3; do
      timeout 120 ./build/tensordiag diagonalize "$work/$input.npy" --out "$work/o_${input}_$devices" --devices $devices \
        --max-sweeps 6 > "$work/log" 2>&1 && check_outputs "$work/$input.npy" "$work/o_${input}_$devices" \
        "$input.npy --devices $devices" 2>&1 | tee -a "$out/cli.txt" || { status=1; cat "$work/log" | tee -a "$out/cli.txt"; }
    done
  done
  # mpirun with a GPU a process (issue 14 item 3), through the carried Open MPI.
  if [ -f build/device-mpi/env.sh ]; then
    (
      source build/device-mpi/env.sh
      for input in a b; do
        for np in 2 4; do
          rm -rf "$work/m"
          timeout 180 mpirun -np $np ./build/tensordiag diagonalize "$work/$input.npy" --out "$work/m" --distributed \
            --backend cuda --max-sweeps 6 > "$work/log" 2>&1 && check_outputs "$work/$input.npy" "$work/m" \
            "mpirun -np $np $input.npy --distributed --backend cuda" || { echo "mpirun -np $np $input: failed"; tail -5 "$work/log"; }
        done
      done
      # A lost rank: one process killed mid-run, the others end with one line, non-zero, no output.
      ./build/tensordiag generate --order 7 --size 16 --seed 9 --dtype float32 "$work/c.npy" >/dev/null
      rm -rf "$work/m"
      TENSORDIAG_COLLECTIVE_TIMEOUT=20 timeout 120 mpirun -np 2 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
          ( sleep 4; kill -9 $$ ) & fi; exec ./build/tensordiag diagonalize "$0" --out "$1" --distributed --backend cuda \
          --max-sweeps 100000 --tol 0 --stall-tol 0' "$work/c.npy" "$work/m" > "$work/log" 2>&1
      echo "lost rank: exit $?, output left: $(ls "$work/m" 2>/dev/null | wc -l) files; $(grep -m1 'tensordiag: ' "$work/log")"
    ) 2>&1 | tee -a "$out/mpirun.txt"
  fi
  rm -rf "$work"
elif [ "$part" = part2 ]; then
  timeout 420 ./build/bench/gpu_ranks_bench --ranks 1,2,4 11x8 8x16 2>&1 | tee "$out/strong_scaling.txt" || status=1
  timeout 300 ./build/bench/gpu_ranks_bench --made-on-ranks --ranks 4 12x8 2>&1 | tee "$out/n8d12.txt" || status=1
else
  timeout 300 ./build/bench/gpu_qubit_ranks_bench --ranks 1,2,4 33 2>&1 | tee "$out/qubit_33.txt" || status=1
  timeout 200 ./build/bench/gpu_qubit_ranks_bench --ranks 2 34 2>&1 | tee "$out/qubit_34.txt" || status=1
  timeout 250 ./build/bench/gpu_qubit_ranks_bench --ranks 4 35 2>&1 | tee "$out/qubit_35.txt" || status=1
fi
exit $status
