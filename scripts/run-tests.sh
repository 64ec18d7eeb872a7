#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit, real-file, fuzz-corpus replay,
# the HBase compatibility suite (needs Java + Maven, installed here) and a sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --java
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build
ctest --test-dir build --output-on-failure -j2
if [[ -f scripts/sanitize-tests.sh ]]; then bash scripts/sanitize-tests.sh; fi
