#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on the built-in sample: verify an
# HFile written by real HBase 2.6, show its metadata and its first cells.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build hfile-dump hfile-verify hfile-frontend >/dev/null
sample=testdata/hbase/snappy-fast_diff-row-crc32c-tags.hfile
echo "== hfile verify $sample"
build/bin/hfile verify "$sample"
echo "== hfile dump -m $sample"
build/bin/hfile dump -m "$sample"
echo "== hfile dump -p --limit 10 $sample"
build/bin/hfile dump -p --limit 10 "$sample"
