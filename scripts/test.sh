#!/usr/bin/env bash
# Dependencies and build (scripts/build.sh), then every test CTest knows, then a minute of fuzzing
# the .npy reader (scripts/fuzz-npy.sh, which says so and skips when clang++-14 is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
bash scripts/fuzz-npy.sh 60
