#!/usr/bin/env bash
# On the GPU machine, in one call: the GPU doctest suite (tests/gpu, the device-input cases among
# them) and the whole Python suite with CuPy and PyTorch (scripts/gpu-python.sh: the CUDA-array
# tests of issue 13 run there, and skip where a library or the GPU is missing). Expects, carried
# from the machine that built them: build/device-libs (a copy of build/*.a), build/tensordiag and
# build/tests/tensordiag_gpu_tests. The GPU tests have the CLI's path compiled in: BUILT_IN names
# the checkout they were built in (default /work/main), linked here to this one.
#   usage: BUILT_IN=/work/wt-dlpack bash scripts/gpu-cuda-arrays.sh [OUTDIR]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-cuda-arrays-out}
mkdir -p "$out"
built_in=${BUILT_IN:-/work/main}
if [ ! -e "$built_in/build" ]; then mkdir -p "$(dirname "$built_in")" && ln -sfn "$PWD" "$built_in"; fi
export NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1 TENSORDIAG_CACHE_DIR=$(mktemp -d) TENSORDIAG_CLI=$PWD/build/tensordiag
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$out/device.txt"
python3 -c "import cupy, torch; print('cupy', cupy.__version__, 'torch', torch.__version__)" 2>&1 | tee -a "$out/device.txt"
status=0
./build/tests/tensordiag_gpu_tests 2>&1 | tee "$out/gpu_tests.log" || status=1
bash scripts/gpu-python.sh -rs -p no:cacheprovider 2>&1 | tee "$out/python_on_gpu.log" || status=1
exit $status
