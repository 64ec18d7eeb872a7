#!/usr/bin/env bash
# Runs the HBase harness without Maven: needs a prior `mvn -q package` in this directory
# (which writes target/classpath.txt). Usage: tests/hbase/harness.sh gen|read ...
# HARNESS_BUILD_DIR selects another Maven build directory (as built with
# mvn -Dharness.build.dir=DIR); default tests/hbase/target. HARNESS_EXTRA_CLASSPATH is appended
# to the classpath (the MapReduce tools' jars of mapreduce/pom.xml).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="${HARNESS_BUILD_DIR:-$here/target}"
if [[ ! -f "$target/classpath.txt" || ! -d "$target/classes" ]]; then
  echo "harness.sh: not built in $target; run: (cd $here && mvn -q package)" >&2
  exit 2
fi
# --add-opens: HBase probes java.nio internals for its Unsafe fast paths and logs a stack trace
# without them. Small heap + serial GC: each run is a short single-file job.
exec java --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED -XX:+UseSerialGC -Xmx512m -XX:TieredStopAtLevel=1 \
  -cp "$(cat "$target/classpath.txt"):$target/classes${HARNESS_EXTRA_CLASSPATH:+:$HARNESS_EXTRA_CLASSPATH}" org.hfilekit.harness.Main "$@"
