#!/usr/bin/env bash
# On the CPU (issue 11, packed storage): packed symmetric tensors of orders 3 and 4 run by the packed
# engine (TENSORDIAG_PACKED_FULL_BYTES=0) and through full storage (the default), 10 sweeps forced,
# three runs each alternated: the sweeps' time and the whole command's wall time and peak memory.
# BACKEND=cuda: the same on the GPU (the GPU packed engine against order 3's route; warm kernel
# cache after the first run of each).
#   usage: [BACKEND=cpu|cuda] bash scripts/cpu-packed-full-route.sh [SHAPES...]
#          (default 3x32 3x64 3x128 4x16 4x32)
set -uo pipefail
cd "$(dirname "$0")/.."
shapes=("$@")
[ ${#shapes[@]} -eq 0 ] && shapes=(3x32 3x64 3x128 4x16 4x32)
work=$(mktemp -d)
echo "DxN     dtype    route    engine      sweeps_ms (3 runs)           wall_s (3 runs)     peak_MB"
for shape in "${shapes[@]}"; do
  order=${shape%x*}; size=${shape#*x}
  for dtype in float64 float32; do
    ./build/tensordiag generate --order "$order" --size "$size" --seed 3 --noise 0.01 --dtype "$dtype" \
      --structure symmetric --packed "$work/p.npy" || exit 1
    declare -A ms wall peak engine
    for repeat in 1 2 3; do
      for route in packed full; do
        bytes=$([ $route = packed ] && echo 0 || echo "")
        TENSORDIAG_PACKED_FULL_BYTES=$bytes /usr/bin/time -f "%e %M" -o "$work/time" ./build/tensordiag diagonalize \
          "$work/p.npy" --packed "$order" --backend "${BACKEND:-cpu}" --max-sweeps 10 --tol 0 --stall-tol 0 --out "$work/r_$route" -q || exit 1
        read -r seconds kb < "$work/time"
        ms[$route]+="$(python3 -c "import json; print('%.2f' % (1e3*json.load(open('$work/r_$route/report.json'))['timings']['sweeps_seconds']))") "
        wall[$route]+="$seconds "
        peak[$route]=$((kb / 1024))
        engine[$route]=$(python3 -c "import json; print(json.load(open('$work/r_$route/report.json'))['engine'])")
      done
    done
    for route in packed full; do
      printf "%-7s %-8s %-8s %-11s %-28s %-19s %s\n" "$shape" "$dtype" "$route" "${engine[$route]}" "${ms[$route]}" "${wall[$route]}" "${peak[$route]}"
    done
    cmp -s <(python3 -c "import json; print(json.load(open('$work/r_packed/report.json'))['history'][-1]['off_rel'])") \
           <(python3 -c "import json; print(json.load(open('$work/r_full/report.json'))['history'][-1]['off_rel'])") ||
      echo "        (last off_rel: packed $(python3 -c "import json; print(json.load(open('$work/r_packed/report.json'))['history'][-1]['off_rel'])"), full $(python3 -c "import json; print(json.load(open('$work/r_full/report.json'))['history'][-1]['off_rel'])"))"
    unset ms wall peak engine
  done
done
