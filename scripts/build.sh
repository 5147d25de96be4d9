#!/usr/bin/env bash
# Installs the Debian 12 packages tensordiag needs (apt-get is skipped when all of them are already
# installed, so this works offline on a prepared machine), then configures and builds build/.
set -euo pipefail
cd "$(dirname "$0")/.."

# The C++ build (libssl-dev: libcrypto's SHA-256 for the kernel cache), then the Python module
# (python3-dev, pybind11-dev), what its tests and examples import (NumPy, SciPy, matplotlib,
# pytest) and what `pip install --no-build-isolation .` needs, then clang with libFuzzer for the
# .npy fuzzer that scripts/test.sh runs (scripts/fuzz-npy.sh), and Open MPI for the distributed
# engine's CPU ranks (the plugin libtensordiag_mpi.so and the tests that run under mpirun).
packages=(cmake g++ make libboost-dev libeigen3-dev nlohmann-json3-dev libcli11-dev doctest-dev
          libssl-dev libopenmpi-dev openmpi-bin
          python3-dev pybind11-dev python3-numpy python3-scipy python3-matplotlib python3-pytest
          python3-setuptools python3-wheel python3-pip python3-venv clang-14 libclang-rt-14-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The CUDA 13 toolkit (NVRTC, the CUDA runtime) is not a Debian package: it is expected in
# /usr/local/cuda, or where CUDAToolkit_ROOT points.
cuda_root=${CUDAToolkit_ROOT:-/usr/local/cuda}
if [ ! -x "$cuda_root/bin/nvcc" ] && [ ! -f "$cuda_root/include/nvrtc.h" ]; then
  echo "error: the CUDA 13 toolkit was not found in $cuda_root (set CUDAToolkit_ROOT)" >&2
  exit 1
fi

cmake -S . -B build -DCUDAToolkit_ROOT="$cuda_root"
cmake --build build -j"$(nproc)"
