#!/usr/bin/env bash
# On the GPU machine, whose python3 is not Debian 12's: builds the Python extension there against
# the runtime's static libraries built here (carry build/device-libs, made by copying build/*.a),
# with that machine's python3 headers, pybind11 and g++, then runs the whole Python test suite
# (backend auto: the GPU for every shape a GPU engine takes).
# PACKAGE_PARENT keeps the built package there (for running examples after the tests).
#   usage: [PACKAGE_PARENT=DIR] bash scripts/gpu-python.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
include=$("$python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
pybind11=$("$python" -c "import pybind11; print(pybind11.get_include())")
suffix=$("$python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
package=${PACKAGE_PARENT:-$(mktemp -d)}/tensordiag
mkdir -p "$package"
cp python/tensordiag/*.py "$package/"
libs=build/device-libs
g++ -O2 -std=c++20 -fPIC -shared -I. -isystem "$include" -isystem "$pybind11" -isystem /usr/local/cuda/include \
  python/src/module.cpp -Wl,--start-group "$libs"/libtensordiag*.a -Wl,--end-group \
  /usr/local/cuda/lib64/libcudart_static.a -fopenmp -ldl -lrt -lpthread "$(ldconfig -p | awk '/libcrypto.so.3 /{print $NF; exit}')" \
  -o "$package/_tensordiag$suffix"
PYTHONPATH=$(dirname "$package") "$python" -m pytest -q tests/python "$@"
