# Sourced (with no arguments) at the top of the scripts/gpu-*.sh that write OUTDIR and keep a
# kernel cache the caller may set, after `set -uo pipefail` and `default_out=...`: moves to the
# checkout, takes OUTDIR from $1 (default: the device tool's $OUT where it is set, else $default_out)
# and shifts it off the caller's arguments (a note on stderr where OUTDIR is outside $OUT),
# links /work/main to this checkout where the build came from another machine (the test helpers'
# compiled-in paths), writes the device's name to OUTDIR/device.txt, uses a fresh kernel cache
# unless TENSORDIAG_CACHE_DIR is set, and sets status=0. The device tool brings back at most 8
# files from OUTDIR (its README's limits): a script that writes more calls pack_outputs at its end.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:-${OUT:-$default_out}}
shift || true
mkdir -p "$out"
# The device tool brings back only what is under its $OUT: say so at once where OUTDIR is elsewhere.
if [ -n "${OUT:-}" ]; then
  case "$(cd "$out" && pwd)/" in
    "$(cd "$OUT" && pwd)"/*) ;;
    *) echo "gpu-start: note: OUTDIR $out is not under \$OUT ($OUT): its files will not come back" >&2 ;;
  esac
fi
if [ ! -e /work/main/build ] && [ "$(id -u)" -eq 0 ]; then mkdir -p /work && ln -sfn "$PWD" /work/main; fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/device.txt"
export TENSORDIAG_CACHE_DIR=${TENSORDIAG_CACHE_DIR:-$(mktemp -d)}
status=0
# OUTDIR's files packed into OUTDIR/all.tgz (and removed), so that one file comes back.
pack_outputs() {
  (cd "$out" && find . -mindepth 1 -maxdepth 1 ! -name all.tgz -print0 | tar czf all.tgz --null -T - --remove-files)
}
