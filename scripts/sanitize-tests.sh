#!/usr/bin/env bash
# Builds build-asan with ASan + UBSan (-DHFILE_SANITIZE=ON) and runs the unit tests and the fuzz
# corpus replays under it. Exits non-zero on any failure, sanitizer report or leak.
#
#   scripts/sanitize-tests.sh [extra ctest args]     (JOBS=n to change the parallelism)
#   scripts/sanitize-tests.sh --build-only           (configure and build, run nothing)
#
# Allocations above 256 MiB abort the test (max_allocation_size_mb): the reader's memory must stay
# bounded by ReaderOptions.max_block_size whatever a damaged file's length fields say. The heavy
# labels (hbase: HBase-written fixtures, bench: benchmarks, hdfs: the MiniDFSCluster run, whose
# HTTP client code webhdfs_test covers here against a loopback server) are left to the normal build.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
jobs=${JOBS:-$(nproc)}
build_only=0
if [[ ${1:-} == --build-only ]]; then build_only=1; shift; fi

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHFILE_SANITIZE=ON \
  -DHFILE_BUILD_BENCHMARKS=OFF >/dev/null
ninja -C build-asan -j"$jobs"
if ((build_only)); then
  echo "sanitize-tests: built in $(( $(date +%s) - start )) s"
  exit 0
fi

export ASAN_OPTIONS=detect_leaks=1:max_allocation_size_mb=256:allocator_may_return_null=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan -j"$jobs" -LE 'hbase|bench|hdfs|spark' --output-on-failure "$@"

echo "sanitize-tests: passed in $(( $(date +%s) - start )) s"
