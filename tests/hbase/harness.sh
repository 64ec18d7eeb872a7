#!/usr/bin/env bash
# Runs the HBase harness without Maven: needs a prior `mvn -q package` in this directory
# (which writes target/classpath.txt). Usage: tests/hbase/harness.sh gen|read ...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ ! -f "$here/target/classpath.txt" || ! -d "$here/target/classes" ]]; then
  echo "harness.sh: not built; run: (cd $here && mvn -q package)" >&2
  exit 2
fi
# --add-opens: HBase probes java.nio internals for its Unsafe fast paths and logs a stack trace
# without them. Small heap + serial GC: each run is a short single-file job.
exec java --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens java.base/java.lang=ALL-UNNAMED -XX:+UseSerialGC -Xmx512m -XX:TieredStopAtLevel=1 \
  -cp "$(cat "$here/target/classpath.txt"):$here/target/classes" org.hfilekit.harness.Main "$@"
