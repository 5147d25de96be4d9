#!/usr/bin/env bash
# Builds the C++ test suite, the CLI and the examples with gcc under AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ (the main build in build/ is untouched) and runs every
# test CTest knows there; the GPU tests skip without a device, as in the main build. The Python
# module is left out: loading an ASan-built module into an uninstrumented python3 needs libasan
# preloaded into the interpreter, which reports Python's own allocations.
#   usage: scripts/sanitize.sh [CTEST ARGS...]   e.g. scripts/sanitize.sh -R npy
set -euo pipefail
cd "$(dirname "$0")/.."

# -fno-sanitize-recover: an undefined-behaviour report fails the test instead of scrolling by.
# Warnings are not errors here: the main build holds the line on warnings, and the sanitizers'
# instrumentation makes gcc's flow-based warnings (-Wmaybe-uninitialized) report false positives.
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# Debian's gcc links with --as-needed except under -fsanitize; without it the CUDA driver's stub
# (libcuda.so, which FindCUDAToolkit adds for NVRTC) becomes a needed library, and the binaries
# no longer start on a machine without a driver. So it is asked for explicitly.
linker_flags="$sanitizers -Wl,--as-needed"
cuda_root=${CUDAToolkit_ROOT:-/usr/local/cuda}
cmake -S . -B build-asan -DCUDAToolkit_ROOT="$cuda_root" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS="$sanitizers" \
  -DCMAKE_EXE_LINKER_FLAGS="$linker_flags" -DCMAKE_SHARED_LINKER_FLAGS="$linker_flags" \
  -DTENSORDIAG_PYTHON=OFF -DTENSORDIAG_WARNINGS_AS_ERRORS=OFF > /dev/null
cmake --build build-asan -j"$(nproc)"

# Without a driver the CUDA runtime needs no ASan options; with one, add protect_shadow_gap=0
# (README, "Fuzzing and sanitizers").
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
# NVRTC keeps allocations for the life of the process: not ours to fix (scripts/lsan-suppressions.txt).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ctest --test-dir build-asan --output-on-failure -j"$(nproc)" "$@"
