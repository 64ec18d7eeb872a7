#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit, real-file, fuzz-corpus replay,
# the local HBase cluster tests (bulk load, compaction vs HBase, loopback only),
# the HBase compatibility suite and the HDFS (WebHDFS) test (need Java + Maven, installed here)
# and a sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --java --browser
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHFILE_HBASE_CLUSTER_TESTS=ON >/dev/null
ninja -C build
ctest --test-dir build --output-on-failure -j2
if [[ -f scripts/sanitize-tests.sh ]]; then bash scripts/sanitize-tests.sh; fi
