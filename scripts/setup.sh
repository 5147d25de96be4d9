#!/usr/bin/env bash
# From a fresh clone to a first result: dependencies, build, then `tensordiag demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build/tensordiag demo
