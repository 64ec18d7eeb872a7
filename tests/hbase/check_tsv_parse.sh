#!/usr/bin/env bash
# check_tsv_parse.sh TSV_PARSE_CASES_BINARY CASES WORK_DIR [HBASE_MAPREDUCE_JAR]
# hfilekit's ImportTsv-compatible TSV parser against HBase 2.6's own ImportTsv.TsvParser (and the
# TsvImporterMapper steps after it) on the tricky lines of CASES (tsv_cases.txt); see
# check_tsv_parse.py. The hbase-mapreduce jar is resolved through Maven when not given.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ours_bin=$1 cases=$2 work=$3 jar=${4:-}
rm -rf "$work" && mkdir -p "$work"
if [[ -z "$jar" ]]; then
  version=2.6.4  # hbase-mapreduce 2.6.4-hadoop3 is not served; TsvParser is the same code
  repo=${MAVEN_REPO:-$HOME/.m2/repository}
  jar="$repo/org/apache/hbase/hbase-mapreduce/$version/hbase-mapreduce-$version.jar"
  if [[ ! -f "$jar" ]]; then
    mvn -q -B dependency:get -Dartifact=org.apache.hbase:hbase-mapreduce:$version -Dtransitive=false >&2
  fi
  [[ -f "$jar" ]] || { echo "FAIL: $jar did not resolve"; exit 1; }
fi
"$ours_bin" "$cases" > "$work/ours.jsonl"
"$here/harness.sh" tsvparse --jar "$jar" "$cases" > "$work/hbase.jsonl" 2> "$work/hbase.stderr" || {
  echo "FAIL: HBase's tsvparse failed (see $work/hbase.stderr)"; tail -5 "$work/hbase.stderr"; exit 1; }
python3 "$here/check_tsv_parse.py" "$work/ours.jsonl" "$work/hbase.jsonl" "$cases"
