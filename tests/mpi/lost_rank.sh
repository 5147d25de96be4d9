#!/usr/bin/env bash
# A rank killed mid-run (kill -9): mpirun ends the job and SIGTERMs the survivor, which is waiting in
# a collective; the survivor says so on one line, removes what it staged, and the job exits non-zero
# without hanging. mpirun's grace before SIGKILL is raised from 1 s to 10 s so that a loaded machine
# still lets the survivor's watchdog (cli/lost_rank_watchdog.hpp, 0.2 s) speak.
set -euo pipefail
tensordiag=$1
mpirun=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$tensordiag" generate t.npy --order 6 --size 12 --seed 1 --noise 0.2 --dtype float32 > /dev/null
set +e
timeout 120 "$mpirun" -np 2 --oversubscribe --mca odls_base_sigkill_timeout 10 "$tensordiag" diagonalize t.npy \
  --out out --distributed --max-sweeps 100000 --tol 0 --stall-tol 0 -q 2> err.txt &
job=$!
set -e
# Wait until both ranks run and rank 0 has made the output directory, then kill the newest rank.
launcher=""
for _ in $(seq 600); do
  launcher=$(pgrep -P $job || true)  # timeout's one child: mpirun (or mpiexec)
  ranks=0
  [ -z "$launcher" ] || ranks=$(pgrep -x tensordiag -P "$launcher" | wc -l || true)
  [ "$ranks" -eq 2 ] && [ -d out ] && break
  sleep 0.1
done
[ -n "$launcher" ] || { echo "FAIL: mpirun did not start" >&2; exit 1; }
sleep 1
kill -9 "$(pgrep -n -x tensordiag -P "$launcher")"
set +e
wait $job
status=$?
set -e
cat err.txt
[ "$status" -ne 0 ] || { echo "FAIL: the job exited 0" >&2; exit 1; }
[ "$status" -ne 124 ] || { echo "FAIL: the job hung (killed by timeout)" >&2; exit 1; }
grep -q "tensordiag: error: rank 0: terminated (SIGTERM) while waiting for the other ranks" err.txt ||
  { echo "FAIL: no line from the surviving rank" >&2; exit 1; }
[ ! -e out ] || { echo "FAIL: out/ was left behind:" >&2; ls -la out >&2; exit 1; }
echo "lost rank: the survivor said why, exit $status, nothing left behind"
