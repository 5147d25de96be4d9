#!/usr/bin/env bash
# Installs the Debian 12 packages tensordiag needs (apt-get is skipped when all of them are already
# installed, so this works offline on a prepared machine), then configures and builds build/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libboost-dev libeigen3-dev nlohmann-json3-dev libcli11-dev doctest-dev)
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

cmake -S . -B build
cmake --build build -j"$(nproc)"
