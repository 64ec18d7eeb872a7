#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: unit, real-file, fuzz-corpus replay,
# the local HBase cluster tests (bulk load, compaction vs HBase, loopback only),
# the HBase compatibility suite and the HDFS (WebHDFS) test (need Java + Maven, installed here)
# and a sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --java --browser --spark
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHFILE_HBASE_CLUSTER_TESTS=ON >/dev/null
ninja -C build
# The sanitizer build compiles everything again. It starts now, beside the tests, at nice 19 (and
# idle I/O class): it only gets the CPU the tests leave idle (the HBase cluster tests run one at a
# time and often wait), so the tests take as long as alone. Its tests run after, at full speed.
# Job control (set -m) gives it a process group of its own, to stop it if the tests fail; it
# stays in this session, where the nice value counts against the tests' (per-session autogroups).
sanitize=0
[[ -f scripts/sanitize-tests.sh ]] && sanitize=1
if ((sanitize)); then
  ionice=(); command -v ionice >/dev/null && ionice=(ionice -c 3)
  set -m
  "${ionice[@]}" nice -n 19 bash scripts/sanitize-tests.sh --build-only \
    </dev/null >build/sanitize-build.log 2>&1 &
  asan_build=$!
  set +m
fi
# -j3 on 2 cores: the HBase cluster tests (one at a time, RESOURCE_LOCK) and the fault suite
# mostly wait (30% and 20% of a core when run alone), so two slots would leave a core idle.
if ! ctest --test-dir build --output-on-failure -j3; then
  ((sanitize)) && { kill -- -"$asan_build" 2>/dev/null || true; }
  exit 1
fi
if ((sanitize)); then
  if ! wait "$asan_build"; then
    cat build/sanitize-build.log >&2
    echo "run-tests: the sanitizer build failed" >&2
    exit 1
  fi
  tail -n 1 build/sanitize-build.log
  bash scripts/sanitize-tests.sh
fi
