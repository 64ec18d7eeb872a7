#!/usr/bin/env bash
# The main job on the built-in sample: installs what is missing, builds, then runs
# scripts/docs_demo.sh: the column-family design guide's `docs` table (2000 generated documents,
# families m and b) created, bulk-loaded, described, read (a folder listing and a document open,
# with the blocks and bytes each reads against the same data in one family), advised, altered,
# a family renamed, a region split and every table verified, all offline.
#
# Environment: DOCS (default 2000), SAMPLE_DIR (default build/sample; recreated), BUILD_DIR
# (default build; an existing build dir is reused as it is configured).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}

bash scripts/install-deps.sh
if [[ ! -f $build/build.ninja ]]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$build" hfile-frontend hfile-create hfile-describe hfile-bulkload hfile-dump \
  hfile-advise hfile-alter hfile-copy-family hfile-split hfile-verify >/dev/null
exec bash scripts/docs_demo.sh "$build/bin" "${SAMPLE_DIR:-$build/sample}" "${DOCS:-2000}"
