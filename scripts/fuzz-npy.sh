#!/usr/bin/env bash
# Fuzzes the .npy reader with libFuzzer for SECONDS (default 60): builds fuzz/ with clang++-14
# under AddressSanitizer and UndefinedBehaviorSanitizer in build-fuzz/, replays the committed seed
# corpus (fuzz/corpus/npy/), then mutates it. New interesting inputs go to build-fuzz/corpus/,
# never into the repository; a crashing input is saved as build-fuzz/crashes/crash-<sha1> and the
# script exits non-zero. Without clang++-14 it says so and exits 0, so that scripts/test.sh runs on
# machines that have only gcc.
#   usage: scripts/fuzz-npy.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
  echo "error: SECONDS must be a positive whole number, got '$seconds'" >&2
  exit 2
fi
if ! command -v clang++-14 > /dev/null; then
  echo "fuzz-npy: skipped: clang++-14 is not installed (apt-get install clang-14 libclang-rt-14-dev)"
  exit 0
fi

cmake -S fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build-fuzz -j"$(nproc)"
mkdir -p build-fuzz/corpus build-fuzz/crashes
# Every seed once and whole (fuzzing below truncates inputs to -max_len): the regression check.
if ! replay=$(build-fuzz/npy_fuzzer -artifact_prefix=build-fuzz/crashes/ fuzz/corpus/npy/*.npy 2>&1); then
  echo "$replay" >&2
  echo "fuzz-npy: a seed of fuzz/corpus/npy crashed the reader" >&2
  exit 1
fi
echo "fuzz-npy: $(grep -c '^Executed' <<< "$replay") seeds replayed whole, none crashed"
# -max_len: the seeds reach 2 KiB (a version 2.0 header); 4 KiB leaves room to grow.
# -timeout: no single input should take anywhere near 10 s; one that does is a hang.
build-fuzz/npy_fuzzer build-fuzz/corpus fuzz/corpus/npy \
  -dict=fuzz/npy.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -print_final_stats=1 -artifact_prefix=build-fuzz/crashes/
