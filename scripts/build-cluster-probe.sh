#!/usr/bin/env bash
# Builds bench/cluster_apply_probe.cu (a measurement for issue 15, not part of the engine) with the
# CUDA toolkit's nvcc for sm_90 into build/bench/cluster_apply_probe.
#   usage: bash scripts/build-cluster-probe.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/bench
/usr/local/cuda/bin/nvcc -std=c++20 -O3 -arch=sm_90 -lineinfo -Xptxas -v bench/cluster_apply_probe.cu \
  -o build/bench/cluster_apply_probe 2>&1 | grep -E "error|warning|registers|spill" || true
test -x build/bench/cluster_apply_probe
