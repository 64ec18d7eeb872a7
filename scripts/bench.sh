#!/usr/bin/env bash
# Runs hfilekit's comparison benchmark: hfilekit against RocksDB's SST files, HBase 2.6 (Java,
# in-process) and the raw codec + checksum floor, on the same generated cells, in one run.
#
#   scripts/bench.sh [--quick] [--out DIR] [--only CODEC/ENCODING,...] [bench.py options]
#
# Writes DIR/results.md, DIR/results.json and DIR/results.png (default DIR: bench-out).
# --quick: 16 MiB of cells, 10 settings, a few minutes on 2 cores; default: ~1 GiB of cells,
# all 18 settings (6 codecs x 3 encodings). In the SNAPPY settings also `hfile alter` of the
# family's codec (SNAPPY -> ZSTD, GZ) against the rewrite floor and HBase: DIR/alter.md and
# DIR/alter.json, and `hfile copy-family` and `hfile split` of that table against the floor:
# DIR/ops.md and DIR/ops.json (--no-alter leaves both out). --bulkload-only: only `hfile bulkload`
# of a 1 GiB TSV against HBase's ImportTsv and the write floor: DIR/bulkload.md, .json.
# --spark-only [bench_spark.py options]: the distributed jobs' scaling, local[2] against
# local[1], and the driver's cost per unit at 64 and 1,024 units (scripts/bench_spark.py, the
# pyspark venv of install-deps.sh --spark): DIR/results.json. Builds
# what it needs: build/ (Release, with benchmarks) and the HBase harness (Maven; skipped with a
# warning when Java is missing).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${HFILE_BENCH_BUILD:-$root/build}"
if [[ ${1:-} == --spark-only ]]; then
  shift
  venv="$HOME/.cache/hfilekit/spark-venv"
  [[ -x $venv/bin/python ]] || bash "$root/scripts/install-deps.sh" --spark
  [[ -f "$build/CMakeCache.txt" ]] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
  ninja -C "$build" hfile hfile-task hfile-create hfile-bulkload hfile-alter hfile-compact >&2
  out=bench-out
  args=()
  while (($#)); do
    case "$1" in
      --out) out=$2; shift 2 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  PATH="$venv/bin:$PATH" exec "$venv/bin/python" "$root/scripts/bench_spark.py" \
    --bin "$build/bin" --out "$out" "${args[@]}"
fi
harness_build="${HFILE_BENCH_HARNESS_BUILD:-$build/hbase-harness}"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHFILE_BUILD_BENCHMARKS=ON
fi
ninja -C "$build" hfile-bench hfile-verify hfile-alter hfile-copy-family hfile-split \
  hfile-bulkload hfile-bulkload-floor >&2

extra=()
if command -v mvn >/dev/null && command -v java >/dev/null; then
  (cd "$root/tests/hbase" && mvn -q -o package -Dharness.build.dir="$harness_build" >&2 ||
     mvn -q package -Dharness.build.dir="$harness_build" >&2)
  # ImportTsv's jars (hbase-mapreduce, LocalJobRunner) for --bulkload-only.
  (cd "$root/tests/hbase" && mvn -q -o -f mapreduce/pom.xml package -Dharness.build.dir="$harness_build" >&2 ||
     mvn -q -f mapreduce/pom.xml package -Dharness.build.dir="$harness_build" >&2)
else
  echo "bench.sh: no Java/Maven, running without the HBase peer" >&2
  extra+=(--no-hbase)
fi
python3 -c 'import matplotlib' 2>/dev/null ||
  echo "bench.sh: no matplotlib (pip install matplotlib): results.png will be missing" >&2
exec python3 "$root/scripts/bench.py" --build "$build" --harness-build "$harness_build" \
  "${extra[@]}" "$@"
