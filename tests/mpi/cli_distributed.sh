#!/usr/bin/env bash
# `mpirun -np P tensordiag diagonalize ... --distributed` writes the same files, byte for byte, as
# one process running the CPU engine with the same group order (round-robin), for P = 2, 3 and 4 (N = 7:
# at P = 4 one rank holds the unpaired index alone); and a run with more ranks than index pairs and
# the unpaired index fails on every rank with one line, leaving no output.
set -euo pipefail
tensordiag=$1
mpirun=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$tensordiag" generate t.npy --order 4 --size 7 --seed 11 --noise 0.3 > /dev/null
"$tensordiag" diagonalize t.npy --out one --backend cpu --schedule round-robin --eta 0.02 --max-sweeps 4 -q
for ranks in 2 3 4; do
  "$mpirun" -np $ranks --oversubscribe "$tensordiag" diagonalize t.npy --out "ranks$ranks" --distributed \
    --schedule round-robin --eta 0.02 --max-sweeps 4 -q
  for file in core.npy factor_1.npy factor_2.npy factor_3.npy factor_4.npy; do
    cmp "one/$file" "ranks$ranks/$file"
  done
  grep -q "\"ranks\": $ranks" "ranks$ranks/report.json"
done
echo "P = 2, 3, 4: core and factors byte for byte the one-process files"

# float32 conversion and a Fortran-ordered file.
"$tensordiag" generate f.npy --order 3 --size 8 --seed 12 --noise 0.2 --layout F > /dev/null
"$tensordiag" diagonalize f.npy --out f_one --distributed --dtype float32 --max-sweeps 3 -q
"$mpirun" -np 4 --oversubscribe "$tensordiag" diagonalize f.npy --out f_four --distributed --dtype float32 \
  --max-sweeps 3 -q
cmp f_one/core.npy f_four/core.npy
echo "F order, float32: 4 ranks byte for byte one rank"

# Errors: every rank says it on one line, the exit is non-zero, nothing is written.
if "$mpirun" -np 5 --oversubscribe "$tensordiag" diagonalize t.npy --out bad --distributed -q 2> err.txt; then
  echo "FAIL: 5 ranks on N = 7 should fail" >&2
  exit 1
fi
count=$(grep -c "more ranks (5) than the distributed mode of size N = 7 can take" err.txt || true)
[ "$count" -eq 5 ] || { echo "FAIL: expected the error from 5 ranks, got $count:" >&2; cat err.txt >&2; exit 1; }
[ ! -e bad ] || { echo "FAIL: bad/ was left behind" >&2; ls -la bad >&2; exit 1; }
echo "more ranks than pairs and the unpaired index: one line from each of the 5 ranks, no output"

# GPU ranks under mpirun (--backend cuda: NCCL, MPI hands out its id). Without a GPU every rank says
# so on one line and nothing is written; with GPUs the run completes on two of them.
if "$mpirun" -np 2 --oversubscribe "$tensordiag" diagonalize f.npy --out gpu --distributed --backend cuda \
  --max-sweeps 2 -q 2> err.txt; then
  grep -q '"engine": "cuda_distributed"' gpu/report.json
  echo "--backend cuda under mpirun: ran on GPU ranks"
else
  count=$(grep -c "GPU ranks need CUDA devices" err.txt || true)
  [ "$count" -eq 2 ] || { echo "FAIL: expected the no-GPU line from 2 ranks, got $count:" >&2; cat err.txt >&2; exit 1; }
  [ ! -e gpu ] || { echo "FAIL: gpu/ was left behind" >&2; exit 1; }
  echo "--backend cuda under mpirun without a GPU: one line from each of the 2 ranks, no output"
fi
