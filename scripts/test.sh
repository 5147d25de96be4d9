#!/usr/bin/env bash
# Dependencies and build (scripts/build.sh), then every test CTest knows.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
