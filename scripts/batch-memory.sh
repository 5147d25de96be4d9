#!/usr/bin/env bash
# Peak resident memory of `tensordiag diagonalize --batch` on the CPU (GNU time's maximum resident
# set size) for three batch files made here without NumPy: 1000 float64 tensors of D = 5, N = 8 in
# C order and in Fortran order (262 MB each, copies of one generated tensor), and 20000 packed
# D = 5, N = 8 rows (127 MB). Outputs go to a scratch folder; the table goes to stdout.
#   usage: bash scripts/batch-memory.sh [TENSORDIAG_BINARY]   (default build/tensordiag)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-build/tensordiag}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$binary" generate --order 5 --size 8 --seed 3 --dtype float64 "$work/one.npy" > /dev/null
python3 - "$work" <<'PY'
import math, random, struct, sys
work = sys.argv[1]
def header(descr, fortran, shape):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, fortran, ', '.join(map(str, shape)) + (',' if len(shape) == 1 else ''))
    d += ' ' * ((64 - (10 + len(d) + 1) % 64) % 64) + '\n'
    return b'\x93NUMPY\x01\x00' + struct.pack('<H', len(d)) + d.encode()
raw = open(f'{work}/one.npy', 'rb').read()
data = raw[10 + struct.unpack('<H', raw[8:10])[0]:]
with open(f'{work}/batch_c.npy', 'wb') as f:
    f.write(header('<f8', False, (1000, 8, 8, 8, 8, 8)))
    for _ in range(1000): f.write(data)
with open(f'{work}/batch_f.npy', 'wb') as f:
    f.write(header('<f8', True, (1000, 8, 8, 8, 8, 8)))
    for v in struct.unpack('<%dd' % (len(data) // 8), data): f.write(struct.pack('<d', v) * 1000)
random.seed(1)
m = math.comb(12, 5)
row = struct.pack('<%dd' % m, *[random.gauss(0, 1) for _ in range(m)])
with open(f'{work}/packed.npy', 'wb') as f:
    f.write(header('<f8', False, (20000, m)))
    for _ in range(20000): f.write(row)
PY
printf "%-28s %10s %10s %10s\n" file file_MB peak_MB seconds
for run in "batch_c.npy --batch" "batch_f.npy --batch" "packed.npy --packed 5 --batch"; do
  set -- $run
  file=$1; shift
  rm -rf "$work/out"
  /usr/bin/time -f "%M %e" -o "$work/time.txt" "$binary" diagonalize "$work/$file" "$@" --out "$work/out" \
    --max-sweeps 1 --no-verify --backend cpu --quiet
  read -r kb seconds < "$work/time.txt"
  printf "%-28s %10.1f %10.1f %10s\n" "$file $*" "$(($(stat -c %s "$work/$file"))).0e-6" "$kb.0e-3" "$seconds"
done
